FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml setup.py README.md ./
COPY games games
COPY ai ai
COPY server server
COPY frontend frontend
COPY manage.py ./
# gcc builds the compiled Connect Four solver (setup.py), then leaves: the image keeps only the module.
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev \
    && pip install --no-cache-dir . \
    && apt-get purge -y gcc libc6-dev && apt-get autoremove -y && rm -rf /var/lib/apt/lists/*
EXPOSE 8000
