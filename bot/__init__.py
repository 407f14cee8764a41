"""The Telegram bot: aiogram routers, rendering, and the match service over Redis."""
