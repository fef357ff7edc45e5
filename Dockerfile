FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY games games
COPY ai ai
COPY server server
COPY frontend frontend
COPY manage.py ./
RUN pip install --no-cache-dir .
EXPOSE 8000
