"""The real-time transport: the Redis channel layer, frames written at once, socket caps, origins, failing sockets."""
