# Inline mode (bot/routers/inline.py): a challenge posted via the bot in any chat, no group needed.
inline-title = Wyzwanie: { $game }
inline-description = Mecz do { game-points-target } — naciśnij, by wysłać wyzwanie na ten czat
inline-hint = Każdy dostanie swoje kamienie na prywatnym czacie z botem, a ta wiadomość stanie się stołem.
# A deep link to an inline challenge whose message the bot does not know yet: only a press on the message accepts it.
inline-press-accept = To wyzwanie przyjmuje się na czacie, na który zostało wysłane: naciśnij „{ btn-join }” pod wiadomością z wyzwaniem.
# Over a person's budget of inline queries, or their cap of open inline challenges: no result, this button instead.
inline-too-many = Za dużo wyzwań naraz — odczekaj minutę
