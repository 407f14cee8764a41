## Leaderboard, stats, history, settings

game-bingo = Бинго
game-42 = 42
top-title = 🏆 <b>Рейтинг чата</b>
top-title-all = 🏆 <b>Рейтинг по всем чатам</b>
top-row = { $rank }. { $name } — <b>{ $rating }</b> · побед { $won }, поражений { $lost }, матчей { $played }
top-empty = Пока нет сыгранных матчей.
top-you-unranked = Тебя пока нет в рейтинге — сыграй матч: /play
stats-none = { $name }, у тебя пока нет сыгранных матчей.
stats-title-chat = 📊 <b>{ $name }</b> — в этом чате
stats-title-all = 📊 <b>{ $name }</b> — во всех чатах
stats-summary = Матчей: { $played } · побед: { $won } ({ $rate }%) · рейтинг <b>{ $rating }</b>
stats-streak = Серия побед: { $streak } · лучшая: { $best }
stats-game = { $game }: матчей { $played }, побед { $won }
stats-computer = 🤖 Против компьютера (без рейтинга):
stats-computer-level = { $level }: матчей { $played }, побед { $won }, поражений { $lost }
stats-last = Последние матчи:
stats-match-row = { $result ->
    [won] ✅
    [abandoned] 💤
   *[lost] ❌
} { $date } · { $game }: { $a } <b>{ $sa }:{ $sb }</b> { $b }{ $how ->
    [surrender] {" "}(матч сдан)
    [forfeit] {" "}(время вышло)
    [abandoned] {" "}(брошен, без рейтинга)
   *[target] {""}
}
history-title = 📜 <b>Последние матчи чата</b>
history-empty = В этом чате ещё не закончился ни один матч.
history-row = { $date } · { $game }: { $a } <b>{ $sa }:{ $sb }</b> { $b } — победа: { $winner }{ $how ->
    [surrender] {" "}(матч сдан)
    [forfeit] {" "}(время вышло)
   *[target] {""}
}
history-row-abandoned = { $date } · { $game }: { $a } <b>{ $sa }:{ $sb }</b> { $b } — брошен, без рейтинга
settings-title = ⚙️ <b>Настройки чата</b>
    Игра: «{ $preset }»
    До { game-points-target } · язык: { $lang }
    ⏰ Время на ход: { $clock }
settings-target = до { $n }
settings-changed = { $name } меняет настройки.
lang-name-ru = русский
lang-name-pl = польский
lang-name-auto = по языку автора вызова
cmd-top = Рейтинг чата (/top все — общий)
cmd-stats = Моя статистика
cmd-history = Последние матчи чата
cmd-rules = Правила игры
cmd-settings = Настройки чата (админы)
