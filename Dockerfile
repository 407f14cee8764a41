# A small image that runs the bot as a non-root user. Without REDIS_URL the
# bot runs a Redis of its own that keeps its data in the /data volume; the
# compose file points it at its Redis service instead.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DATA_DIR=/data
WORKDIR /app

COPY pyproject.toml README.md ./
COPY engine ./engine
COPY bot ./bot
COPY locales ./locales
RUN pip install . && useradd --create-home --uid 10001 bot && mkdir /data && chown bot /data

USER bot
# matplotlib's font list, built once here rather than by the first picture's worker.
RUN python -c "import matplotlib.font_manager"
VOLUME ["/data"]
CMD ["python", "-m", "bot"]
