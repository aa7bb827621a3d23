# A small image for the Gin Rummy bot: slim Python, an init, a non-root user, the database on
# the /data volume.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    GIN_DB=/data/gin.sqlite3

# Installed from a copy removed in the same step, so the image holds the installed package
# and nothing of its build. constraints.txt pins every package, and the setuptools that
# builds the bot (see its header).
COPY constraints.txt pyproject.toml README.md /tmp/src/
COPY bot /tmp/src/bot
COPY cogs /tmp/src/cogs
RUN PIP_CONSTRAINT=/tmp/src/constraints.txt pip install /tmp/src dumb-init \
    && rm -rf /tmp/src \
    && useradd --create-home --uid 10001 gin \
    && mkdir -p /data /app \
    && chown gin:gin /data \
    && ln -s /data /app/data

# /app/data is the volume: a GIN_DB left empty or set to the plain-run default
# (data/gin.sqlite3, as in .env.example) still keeps the database on /data.
WORKDIR /app
USER gin
VOLUME ["/data"]

# dumb-init runs as PID 1: it passes docker stop's SIGTERM to the bot (which finishes the moves
# in flight, commits and closes the database) and reaps finished processes. Run with a restart
# policy (docker run --restart unless-stopped): if the Discord client ever stops for good the
# bot exits with status 1, and Docker starts it again.
STOPSIGNAL SIGTERM
ENTRYPOINT ["dumb-init", "--"]
CMD ["python", "-m", "bot"]
