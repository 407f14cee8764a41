# The rematch button under a finished match's result (in the group) and on each player's last panel.
btn-rematch = 🔁 Rewanż
rematch-asked = 🔁 { $name } chce rewanżu. { $other }, naciśnij 🔁 — i od razu gramy!
rematch-started = 🔁 Rewanż się zaczął!
rematch-off = Rewanżu nie będzie.
toast-rematch-asked = Rewanż zaproponowany — czekamy na rywala.
toast-rematch-waiting = Rewanż już zaproponowany — czekamy na rywala.
toast-rematch-over = Rewanż nie jest już aktualny.
