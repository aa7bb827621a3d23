# A small image for the Gin Rummy bot: slim Python, non-root user, database on a volume.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    GIN_DB=/data/gin.sqlite3

WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY cogs ./cogs
RUN pip install . \
    && useradd --create-home --uid 10001 gin \
    && mkdir -p /data \
    && chown gin:gin /data

USER gin
VOLUME ["/data"]

# docker stop sends SIGTERM: the bot finishes moves in flight, commits and closes the database.
# Run with a restart policy (docker run --restart unless-stopped): if the Discord client ever
# stops for good the bot exits with status 1, and Docker starts it again.
STOPSIGNAL SIGTERM
CMD ["python", "-m", "bot"]
