# The table as a Telegram Mini App (bot/webapp): its button, its headings, its refusals.
btn-webapp = 🎴 Стол
webapp-hand = Твои камни
webapp-table-empty = На столе пусто
webapp-lead = Заход
webapp-last = Прошлая взятка
webapp-turn-clock = На ход осталось
webapp-offline = Связь пропала — переподключаюсь…
webapp-watching = Ты смотришь матч: камни игроков видят только они сами.
webapp-your-turn = Твой ход
webapp-rematch = 🔁 Реванш
webapp-next = ▶️ К новому матчу
webapp-over = Матч окончен
webapp-refused = Так нельзя
webapp-unauthorized = Не удалось проверить, что стол открыт из Telegram. Закрой его и открой снова кнопкой «🎴 Стол».
webapp-no-match = Такого матча нет: он давно закончился или ссылка неверна.
webapp-not-yours = Этот стол видят только участники чата, где идёт матч.
webapp-too-many = Стол открыт у тебя в слишком многих окнах. Закрой лишние — этот подключится сам.
# Too many requests from one person in a short time (the page waits and asks again).
webapp-slow-down = Слишком часто — подожди пару секунд.
# Telegram or the bot's storage is busy, or the bot holds too many open tables: the page asks again a moment later.
webapp-busy = Бот сейчас занят — попробуй через несколько секунд.
