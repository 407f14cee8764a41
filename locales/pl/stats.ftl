## Leaderboard, stats, history, settings

game-bingo = Bingo
game-42 = 42
top-title = 🏆 <b>Ranking czatu wszech czasów</b>
top-title-all = 🏆 <b>Ranking wszystkich czatów</b>
top-title-outside = 🤝 <b>Ranking meczów poza grupami</b> (wyzwania przez @bota na dowolnym czacie)
top-row = { $rank }. { $name } — <b>{ $rating }</b> · wygrane: { $won }, przegrane: { $lost }, mecze: { $played }
top-empty = Nie rozegrano jeszcze żadnego meczu.
top-you-unranked = Nie ma cię jeszcze w rankingu — zagraj mecz: /play
stats-none = { $name }, nie masz jeszcze rozegranych meczów.
stats-title-chat = 📊 <b>{ $name }</b> — na tym czacie
stats-title-all = 📊 <b>{ $name }</b> — na wszystkich czatach
stats-summary = Mecze: { $played } · wygrane: { $won } ({ $rate }%) · ranking <b>{ $rating }</b>
stats-streak = Seria zwycięstw: { $streak } · najlepsza: { $best }
stats-game = { $game }: mecze: { $played }, wygrane: { $won }
stats-computer = 🤖 Przeciw komputerowi (poza rankingiem):
stats-computer-level = • { $level }: mecze: { $played }, wygrane: { $won }, przegrane: { $lost }
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
cmd-top = Sezon czatu (/top wszystko; /top wszyscy — wszystkie czaty)
cmd-stats = Moje statystyki
cmd-history = Ostatnie mecze czatu
cmd-rules = Zasady gry
cmd-settings = Ustawienia czatu (administratorzy)

## Rivalries: two people's head-to-head record in a chat

series-lead = ⚔️ Bilans spotkań: { $name } prowadzi { $lead }:{ $trail }
series-tie = ⚔️ Bilans spotkań: remis { $n }:{ $n }
rivalry-title = ⚔️ <b>{ $a } — { $b }</b>: bilans spotkań na tym czacie
rivalry-score = Mecze: { $played } · bilans <b>{ $won }:{ $lost }</b>
rivalry-streak = Obecna passa: { $name } — { $wins } z rzędu
rivalry-game = { $game }: { $won }:{ $lost }
rivalry-last = Ostatnie spotkania: { $meetings }
rivalry-meeting = { $result ->
    [won] ✅
   *[lost] ❌
} { $mine }:{ $theirs } ({ $game })
rivalry-none = { $a } — { $b }: na tym czacie nie było jeszcze meczu między wami.
rivalry-self = Bilans spotkań pokazuję tylko z innym graczem: odpowiedz /stats na jego wiadomość albo napisz /stats @nick.
rivalry-not-a-person = Bilans spotkań prowadzę tylko między ludźmi — z botami i komputerem go nie ma.
rivalry-unknown = Nie znam nicku { $name }: nikt o takim nicku nie grał jeszcze ze mną ani do mnie nie pisał.
rivalry-group-only = Bilans spotkań sprawdzisz na czacie grupowym: napisz tam /stats @nick albo odpowiedz /stats na wiadomość rywala.
wins = { $n } { $n ->
    [one] wygrana
    [few] wygrane
   *[many] wygranych
}
losses = { $n } { $n ->
    [one] przegrana
    [few] przegrane
   *[many] przegranych
}

## Seasons: a group's table of one calendar month (UTC)

season-name = { $month ->
    [1] styczeń
    [2] luty
    [3] marzec
    [4] kwiecień
    [5] maj
    [6] czerwiec
    [7] lipiec
    [8] sierpień
    [9] wrzesień
    [10] październik
    [11] listopad
   *[12] grudzień
} { $year }
season-title = 🏆 <b>Sezon: { $season }</b>
season-row = { $rank }. { $name } — <b>{ $wins }</b>, { $losses } · ranking { $gained }
season-empty = Sezon „{ $season }”: na tym czacie nie było jeszcze meczu. Tabela wszech czasów: /top wszystko
season-you-unranked = Nie ma cię jeszcze w tabeli sezonu — zagraj mecz: /play
season-final-title = 🏁 <b>Koniec sezonu: { $season }</b>
season-champion = 👑 Pierwsze miejsce w sezonie: <b>{ $name }</b> — { $wins }
season-final-next = Nowy sezon już trwa — jego tabela: /top
top-words-all-time = all-time, alltime, wszystko, wszech czasów, zawsze, od początku
top-words-all = all, global, wszyscy
