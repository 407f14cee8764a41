## Leaderboard, stats, history, settings

game-bingo = Бинго
game-42 = 42
top-title = 🏆 <b>Рейтинг чата за всё время</b>
top-title-all = 🏆 <b>Рейтинг по всем чатам</b>
top-title-outside = 🤝 <b>Рейтинг матчей вне групп</b> (вызовы через @бота в любом чате)
top-row = { $rank }. { $name } — <b>{ $rating }</b> · побед: { $won }, поражений: { $lost }, матчей: { $played }
top-empty = Пока нет сыгранных матчей.
top-you-unranked = Тебя пока нет в рейтинге — сыграй матч: /play
stats-none = { $name }, у тебя пока нет сыгранных матчей.
stats-title-chat = 📊 <b>{ $name }</b> — в этом чате
stats-title-all = 📊 <b>{ $name }</b> — во всех чатах
stats-summary = Матчей: { $played } · побед: { $won } ({ $rate }%) · рейтинг <b>{ $rating }</b>
stats-streak = Серия побед: { $streak } · лучшая: { $best }
stats-game = { $game }: матчей: { $played }, побед: { $won }
stats-computer = 🤖 Против компьютера (без рейтинга):
stats-computer-level = • { $level }: матчей: { $played }, побед: { $won }, поражений: { $lost }
stats-last = Последние матчи:
stats-match-row = { $result ->
    [won] ✅
    [abandoned] 💤
   *[lost] ❌
} { $date } · { $game }: { $a } <b>{ $sa }:{ $sb }</b> { $b }{ $how ->
    [surrender] {" "}(матч сдан)
    [forfeit] {" "}(время вышло)
    [abandoned] {" "}(прерван, без рейтинга)
   *[target] {""}
}
history-title = 📜 <b>Последние матчи чата</b>
history-empty = В этом чате ещё не закончился ни один матч.
history-row = { $date } · { $game }: { $a } <b>{ $sa }:{ $sb }</b> { $b } — победа: { $winner }{ $how ->
    [surrender] {" "}(матч сдан)
    [forfeit] {" "}(время вышло)
   *[target] {""}
}
history-row-abandoned = { $date } · { $game }: { $a } <b>{ $sa }:{ $sb }</b> { $b } — прерван, без рейтинга
settings-title = ⚙️ <b>Настройки чата</b>
    Игра: «{ $preset }»
    До { game-points-target } · язык: { $lang }
    ⏰ Время на ход: { $clock }
settings-target = до { $n }
settings-changed = { $name } меняет настройки.
lang-name-ru = русский
lang-name-pl = польский
lang-name-auto = по языку автора вызова
cmd-top = Сезон чата (/top за всё время; /top все — все чаты)
cmd-stats = Моя статистика
cmd-history = Последние матчи чата
cmd-rules = Правила игры
cmd-settings = Настройки чата (админы)

## Rivalries: two people's head-to-head record in a chat

series-lead = ⚔️ Личные встречи: { $name } ведёт { $lead }:{ $trail }
series-tie = ⚔️ Личные встречи: поровну, { $n }:{ $n }
rivalry-title = ⚔️ <b>{ $a } — { $b }</b>: личные встречи в этом чате
rivalry-score = Матчей: { $played } · счёт <b>{ $won }:{ $lost }</b>
rivalry-streak = Текущая серия: { $name } — { $wins } подряд
rivalry-game = { $game }: { $won }:{ $lost }
rivalry-last = Последние встречи: { $meetings }
rivalry-meeting = { $result ->
    [won] ✅
   *[lost] ❌
} { $mine }:{ $theirs } ({ $game })
rivalry-none = { $a } и { $b } ещё не играли друг с другом в этом чате.
rivalry-self = Личный счёт бывает только с другим игроком: ответь /stats на его сообщение или напиши /stats @ник.
rivalry-not-a-person = Личный счёт ведётся только между людьми — с ботами и компьютером его нет.
rivalry-unknown = Ник { $name } мне не знаком: никто с таким ником ещё не играл со мной и не писал мне.
rivalry-group-only = Личный счёт ведётся в группе: напиши там /stats @ник или ответь /stats на сообщение соперника.
wins = { $n } { $n ->
    [one] победа
    [few] победы
   *[many] побед
}
losses = { $n } { $n ->
    [one] поражение
    [few] поражения
   *[many] поражений
}

## Seasons: a group's table of one calendar month (UTC)

season-name = { $month ->
    [1] январь
    [2] февраль
    [3] март
    [4] апрель
    [5] май
    [6] июнь
    [7] июль
    [8] август
    [9] сентябрь
    [10] октябрь
    [11] ноябрь
   *[12] декабрь
} { $year }
season-title = 🏆 <b>Сезон: { $season }</b>
season-row = { $rank }. { $name } — <b>{ $wins }</b>, { $losses } · { $gained } к рейтингу
season-empty = Сезон «{ $season }»: в этом чате ещё не было матчей. Таблица за всё время: /top за всё время
season-you-unranked = Тебя пока нет в таблице сезона — сыграй матч: /play
season-final-title = 🏁 <b>Итоги сезона: { $season }</b>
season-champion = 👑 Чемпион сезона — <b>{ $name }</b>: { $wins }
season-final-next = Новый сезон уже начался — его таблица: /top
top-words-all-time = all-time, alltime, за всё время, всё время, за все время, все время, всегда
top-words-all = all, global, все
