# Inline mode (bot/routers/inline.py): a challenge posted via the bot in any chat, no group needed.
inline-title = Вызов: { $game }
inline-description = Матч до { game-points-target } — нажми, чтобы отправить вызов в этот чат
inline-hint = Камни придут каждому в личку с ботом, а это сообщение станет столом.
