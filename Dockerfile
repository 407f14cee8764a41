# A small image that runs the bot as a non-root user.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /app

COPY pyproject.toml README.md ./
COPY engine ./engine
COPY bot ./bot
COPY locales ./locales
RUN pip install . && useradd --create-home --uid 10001 bot

USER bot
CMD ["python", "-m", "bot"]
