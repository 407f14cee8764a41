# Inline mode (bot/routers/inline.py): a challenge posted via the bot in any chat, no group needed.
inline-title = Wyzwanie: { $game }
inline-description = Mecz do { game-points-target } — dotknij, by wysłać wyzwanie na ten czat
inline-hint = Kamienie przyjdą każdemu na prywatny czat z botem, a ta wiadomość stanie się stołem.
