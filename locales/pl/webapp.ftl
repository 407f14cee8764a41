# The table as a Telegram Mini App (bot/webapp): its button, its headings, its refusals.
btn-webapp = 🎴 Stół
webapp-hand = Twoje kamienie
webapp-table-empty = Stół jest pusty
webapp-lead = Wyjście
webapp-last = Ostatnia lewa
webapp-turn-clock = Na ruch zostało
webapp-offline = Połączenie zerwane — łączę ponownie…
webapp-watching = Oglądasz mecz: kamienie graczy widzą tylko oni sami.
webapp-your-turn = Twój ruch
webapp-rematch = 🔁 Rewanż
webapp-next = ▶️ Przejdź do nowego meczu
webapp-over = Mecz zakończony
webapp-refused = Tak nie można
webapp-unauthorized = Nie udało się potwierdzić, że stół został otwarty w Telegramie. Zamknij go i otwórz ponownie przyciskiem „🎴 Stół”.
webapp-no-match = Nie ma takiego meczu: dawno się skończył albo link jest błędny.
webapp-not-yours = Ten stół widzą tylko członkowie czatu, na którym toczy się mecz.
webapp-too-many = Masz stół otwarty w zbyt wielu oknach. Zamknij niepotrzebne — ten połączy się sam.
# Too many requests from one person in a short time (the page waits and asks again).
webapp-slow-down = Za często — odczekaj kilka sekund.
# Telegram or the bot's storage is busy, or the bot holds too many open tables: the page asks again a moment later.
webapp-busy = Bot jest teraz zajęty — spróbuj za kilka sekund.
