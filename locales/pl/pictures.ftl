## Pictures: the match card and the rating chart (plain text: drawn, not sent as HTML)

card-subtitle = { $how ->
    [surrender] { $loser } poddaje się
    [forfeit] { $loser }: czas na ruch minął
    [abandoned] mecz zatrzymany
   *[target] do { game-points-target }
} · { $date }
card-chart = Duże punkty w kolejnych rozdaniach
card-target = cel: { $n }
card-rating = ranking { $rating } ({ $change })
card-computer = Komputer
# A player whose name the picture's font cannot draw (only emoji or CJK characters, say).
card-player = Gracz { $seat }
card-level = poziom: { $level }
card-last-trick = Ostatnia lewa
card-moment = Rozdanie { $deal } · { $name }
card-moment-bingo = bingo wzięło dublet atutowy
card-moment-claim = zadeklarowano { doubles }
card-moment-close = talon zamknięty, ale 70 nie zdobyto
card-moment-made42 = kontrakt 42 ugrany

## Captions (HTML)

card-private = { $result ->
    [won] 🏆 Wygrana! Rywal: { $opponent }, wynik <b>{ $mine }:{ $theirs }</b>.
   *[lost] Porażka. Rywal: { $opponent }, wynik <b>{ $mine }:{ $theirs }</b>.
}
card-private-rating = Twój ranking w tej grupie: <b>{ $rating }</b> ({ $change }).

chart-title-chat = { $name } · ranking na tym czacie
chart-title-all = { $name } · ranking na wszystkich czatach
chart-summary = Teraz { $rating } · najlepszy { $best } · { $n } { $n ->
    [one] mecz
    [few] mecze
   *[many] meczów
} na wykresie
# Before the player has been above the rating the chart starts from: no "best" yet.
chart-summary-no-best = Teraz { $rating } · { $n } { $n ->
    [one] mecz
    [few] mecze
   *[many] meczów
} na wykresie
chart-matches = mecze
chart-player = Gracz
