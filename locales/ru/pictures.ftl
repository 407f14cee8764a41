## Pictures: the match card and the rating chart (plain text: drawn, not sent as HTML)

card-subtitle = { $how ->
    [surrender] { $loser } сдаётся
    [forfeit] { $loser }: время на ход вышло
    [abandoned] матч остановлен
   *[target] до { game-points-target }
} · { $date }
card-chart = Зачётные очки по партиям
card-target = цель: { $n }
card-rating = рейтинг { $rating } ({ $change })
card-computer = Компьютер
# A player whose name the picture's font cannot draw (only emoji or CJK characters, say).
card-player = Игрок { $seat }
card-level = уровень: { $level }
card-last-trick = Последняя взятка
card-moment = Партия { $deal } · { $name }
card-moment-bingo = бинго взяло козырный дубль
card-moment-claim = объявлено { doubles }
card-moment-close = резерв закрыт, но 70 не набрано
card-moment-made42 = контракт 42 выполнен

## Captions (HTML)

card-private = { $result ->
    [won] 🏆 Победа! Соперник: { $opponent }, счёт <b>{ $mine }:{ $theirs }</b>.
   *[lost] Поражение. Соперник: { $opponent }, счёт <b>{ $mine }:{ $theirs }</b>.
}
card-private-rating = Твой рейтинг в этой группе: <b>{ $rating }</b> ({ $change }).

chart-title-chat = { $name } · рейтинг в этом чате
chart-title-all = { $name } · рейтинг во всех чатах
chart-summary = Сейчас { $rating } · лучший { $best } · { $n } { $n ->
    [one] матч
    [few] матча
   *[many] матчей
} на графике
# Before the player has been above the rating the chart starts from: no "best" yet.
chart-summary-no-best = Сейчас { $rating } · { $n } { $n ->
    [one] матч
    [few] матча
   *[many] матчей
} на графике
chart-matches = матчи
chart-player = Игрок
