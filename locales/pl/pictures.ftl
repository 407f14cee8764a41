## Pictures: the match card and the rating chart (plain text: drawn, not sent as HTML)

card-subtitle = { $how ->
    [surrender] { $loser } poddaje się
    [forfeit] { $loser }: czas na ruch minął
    [abandoned] mecz zatrzymany
   *[target] do { game-points-target }
} · { $date }
card-chart = Duże punkty w kolejnych rozdaniach
card-deal = rozdanie
card-target = cel: { $n }
card-rating = ranking { $rating } ({ $change })
card-computer = Komputer
card-level = poziom: { $level }
card-moments = Najciekawsze chwile meczu
card-last-trick = Ostatnia lewa
card-moment-bingo = Rozdanie { $deal } · { $name }: bingo wzięło dublet atutowy
card-moment-claim = Rozdanie { $deal } · { $name }: zadeklarowano { doubles }
card-moment-close = Rozdanie { $deal } · { $name }: talon zamknięty, ale bez 70
card-moment-made42 = Rozdanie { $deal } · { $name }: kontrakt 42 ugrany

## Captions (HTML)

card-private = { $result ->
    [won] 🏆 Wygrana! Rywal: { $opponent }, wynik <b>{ $mine }:{ $theirs }</b>.
   *[lost] Porażka. Rywal: { $opponent }, wynik <b>{ $mine }:{ $theirs }</b>.
}
card-private-rating = Twój ranking w tej grupie: <b>{ $rating }</b> ({ $change }).

chart-title-chat = { $name } · ranking w tym czacie
chart-title-all = { $name } · ranking we wszystkich czatach
chart-summary = Teraz { $rating } · najlepszy { $best } · { $n } { $n ->
    [one] mecz
    [few] mecze
   *[many] meczów
} na wykresie
chart-matches = mecze
