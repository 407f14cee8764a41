# The rematch button under a finished match's result (in the group) and on each player's last panel.
btn-rematch = 🔁 Реванш
rematch-asked = 🔁 { $name } хочет реванша. { $other }, жми 🔁 — и сразу играем!
rematch-started = 🔁 Реванш начался!
rematch-off = Реванша не будет.
toast-rematch-asked = Реванш предложен — ждём соперника.
toast-rematch-waiting = Реванш уже предложен — ждём соперника.
toast-rematch-over = Реванш уже неактуален.
