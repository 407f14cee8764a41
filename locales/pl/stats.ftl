## Leaderboard, stats, history, settings

game-bingo = Bingo
game-42 = 42
top-title = 🏆 <b>Ranking czatu</b>
top-title-all = 🏆 <b>Ranking wszystkich czatów</b>
top-row = { $rank }. { $name } — <b>{ $rating }</b> · wygrane { $won }, przegrane { $lost }, mecze { $played }
top-empty = Nie rozegrano jeszcze żadnego meczu.
top-you-unranked = Nie ma cię jeszcze w rankingu — zagraj mecz: /play
stats-none = { $name }, nie masz jeszcze rozegranych meczów.
stats-title-chat = 📊 <b>{ $name }</b> — na tym czacie
stats-title-all = 📊 <b>{ $name }</b> — na wszystkich czatach
stats-summary = Mecze: { $played } · wygrane: { $won } ({ $rate }%) · ranking <b>{ $rating }</b>
stats-streak = Seria zwycięstw: { $streak } · najlepsza: { $best }
stats-game = { $game }: mecze { $played }, wygrane { $won }
stats-computer = 🤖 Przeciw komputerowi (poza rankingiem):
stats-computer-level = { $level }: mecze { $played }, wygrane { $won }, przegrane { $lost }
stats-last = Ostatnie mecze:
stats-match-row = { $result ->
    [won] ✅
    [abandoned] 💤
   *[lost] ❌
} { $date } · { $game }: { $a } <b>{ $sa }:{ $sb }</b> { $b }{ $how ->
    [surrender] {" "}(poddanie)
    [forfeit] {" "}(czas minął)
    [abandoned] {" "}(przerwany, bez rankingu)
   *[target] {""}
}
history-title = 📜 <b>Ostatnie mecze czatu</b>
history-empty = Na tym czacie nie zakończył się jeszcze żaden mecz.
history-row = { $date } · { $game }: { $a } <b>{ $sa }:{ $sb }</b> { $b } — wygrywa: { $winner }{ $how ->
    [surrender] {" "}(poddanie)
    [forfeit] {" "}(czas minął)
   *[target] {""}
}
history-row-abandoned = { $date } · { $game }: { $a } <b>{ $sa }:{ $sb }</b> { $b } — przerwany, bez rankingu
settings-title = ⚙️ <b>Ustawienia czatu</b>
    Gra: „{ $preset }”
    Do { game-points-target } · język: { $lang }
    ⏰ Czas na ruch: { $clock }
settings-target = do { $n }
settings-changed = { $name } zmienia ustawienia.
lang-name-ru = rosyjski
lang-name-pl = polski
lang-name-auto = według języka autora wyzwania
cmd-top = Ranking czatu (/top wszyscy — ogólny)
cmd-stats = Moje statystyki
cmd-history = Ostatnie mecze czatu
cmd-rules = Zasady gry
cmd-settings = Ustawienia czatu (administratorzy)
