# Tournaments in a group: the sign-up message, then the standings (or the bracket) edited in place, the champion.
cmd-tournament = Turniej dla 3–16 graczy
tournament-players = { $n } { $n ->
    [one] gracz
    [few] graczy
   *[many] graczy
}
tournament-signup-head = 🏆 <b>Turniej</b>: { $game }, do { game-points-target }. Organizator: <b>{ $creator }</b>.
tournament-signup-how = ✅ — zapisz się (naciśnij jeszcze raz, by się wypisać). ▶ — start: uruchamia go organizator lub admin, gdy zapisze się od 3 do 16 graczy. Do 6 graczy — każdy z każdym, więcej — system pucharowy.
tournament-signup-list = Zapisani ({ $n }): { $names }
tournament-signup-nobody = Nikt się jeszcze nie zapisał.
tournament-signup-closes = Do zamknięcia zapisów: { $left } — jeśli turniej nie wystartuje wcześniej.
tournament-cancelled = ✖ Turniej odwołany. Organizator: { $creator }.
tournament-expired = ⌛ Zapisy na turniej zamknięte: przez dobę nikt go nie rozpoczął. Organizator: { $creator }.
tournament-head = 🏆 <b>Turniej</b>: { $game }, do { game-points-target } · { $format ->
    [rr] każdy z każdym
   *[ko] system pucharowy
}, { tournament-players }
tournament-clock = Na ruch — { $clock }.
tournament-rr-legend = Miejsce · gracz · wygrane–przegrane · punkty
tournament-rr-row = { $place }. { $name } · { $won }–{ $lost } · { $points }
tournament-left-mark = 🚪
tournament-now = ▶ Teraz grają: { $pairs }
tournament-left = Meczów do rozegrania: { $n }
tournament-round = { $matches ->
    [1] Finał
    [2] Półfinał
    [4] Ćwierćfinał
   *[other] 1/8 finału
}
tournament-ko-played = { $a } { $sa }:{ $sb } { $b }
tournament-ko-playing = { $a } — { $b } ▶
tournament-ko-waiting = { $a } — { $b }
tournament-ko-bye = { $a } — awans bez gry
tournament-ko-forfeit = { $a } — walkower ({ $b }: { $b_left ->
    [yes] wycofanie się z turnieju
   *[no] niestawienie się
})
tournament-ko-nobody = nikt nie awansuje
tournament-ko-nobody-of = { $a } — { $b }: nikt nie awansuje
tournament-ko-tbd = ?
tournament-leave-hint = 🚪 — wyjdź z turnieju: pozostałe mecze zostaną oddane rywalom walkowerem.
tournament-champion = 🏆 Mistrz turnieju — <b>{ $name }</b>!
tournament-no-champion = 🏁 Turniej zakończony bez mistrza: wszyscy wyszli.
tournament-over-caption = 🏆 Turniej zakończony! Mistrz — <b>{ $name }</b>. { $game }, { tournament-players }.
tournament-over-nobody = 🏁 Turniej zakończony bez mistrza. { $game }, { tournament-players }.
btn-tournament-join = ✅ Biorę udział
btn-tournament-start = ▶ Rozpocznij turniej
btn-tournament-leave = 🚪 Wyjdź z turnieju
toast-tournament-joined = ✅ Jesteś w turnieju!
toast-tournament-unjoined = Wypisano cię z turnieju.
toast-tournament-full = Brak miejsc: w turnieju jest już 16 graczy.
toast-tournament-small = Do startu potrzeba co najmniej 3 graczy.
toast-tournament-gone = Tego turnieju już nie ma albo zapisy są zamknięte.
toast-tournament-creator-only = To może zrobić tylko organizator turnieju lub administrator jego grupy.
toast-tournament-not-entered = Nie grasz w tym turnieju.
tournament-on = Na tym czacie jest już turniej — oto on:
tournament-in-groups = Turnieje odbywają się w grupach: dodaj mnie do grupy i napisz tam /tournament.
tournament-joined-private = ✅ Zapisano cię na turniej: { $game }. Gdy turniej się zacznie, tutaj dostaniesz kamienie do swoich meczów.
tournament-not-started = Aby grać w turnieju, najpierw otwórz prywatny czat z botem — tam będą twoje kamienie.
stats-tournaments = 🏆 Wygrane turnieje: { $n }
picture-tournament-title = Turniej · { $game }
picture-tournament-subtitle = Mistrz: { $name } · { tournament-players } · { $date }
picture-tournament-subtitle-nobody = Bez mistrza · { tournament-players } · { $date }
picture-tournament-col-player = Gracz
picture-tournament-col-played = M
picture-tournament-col-won = W
picture-tournament-col-lost = P
picture-tournament-col-points = Pkt
picture-tournament-bye = —
picture-tournament-forfeit = walkower
picture-tournament-player = Gracz
