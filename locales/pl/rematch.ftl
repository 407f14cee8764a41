# Przycisk rewanżu pod wynikiem zakończonego meczu (w grupie) i na ostatnim panelu każdego gracza.
btn-rematch = 🔁 Rewanż
rematch-asked = 🔁 { $name } chce rewanżu. { $other }, naciśnij 🔁 — i od razu gramy!
rematch-started = 🔁 Rewanż się zaczął!
rematch-off = Rewanżu nie będzie.
toast-rematch-asked = Rewanż zaproponowany — czekamy na rywala.
toast-rematch-waiting = Rewanż już zaproponowany — czekamy na rywala.
toast-rematch-over = Rewanż nie jest już aktualny.
