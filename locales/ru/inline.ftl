# Inline mode (bot/routers/inline.py): a challenge posted via the bot in any chat, no group needed.
inline-title = Вызов: { $game }
inline-description = Матч до { game-points-target } — нажми, чтобы отправить вызов в этот чат
inline-hint = Камни придут каждому в личку с ботом, а это сообщение станет столом.
# A deep link to an inline challenge whose message the bot does not know yet: only a press on the message accepts it.
inline-press-accept = Этот вызов принимают прямо в чате, где он отправлен: нажми «{ btn-join }» под сообщением с вызовом.
# Over a person's budget of inline queries, or their cap of open inline challenges: no result, this button instead.
inline-too-many = Слишком много вызовов сразу — подожди минуту
