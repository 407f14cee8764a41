## Words with numbers

points = { $n } { $n ->
    [one] очко
    [few] очка
   *[many] очков
}
game-points = { $n } { $n ->
    [one] зачётное очко
    [few] зачётных очка
   *[many] зачётных очков
}
tricks = { $n } { $n ->
    [one] взятка
    [few] взятки
   *[many] взяток
}
doubles = { $n } { $n ->
    [one] дубль
    [few] дубля
   *[many] дублей
}
tiles = { $n } { $n ->
    [one] камень
    [few] камня
   *[many] камней
}
minutes = { $n } { $n ->
    [one] минуту
    [few] минуты
   *[many] минут
}

## Games and suits

preset-bingo = Бинго
preset-bingo-classic = Бинго (классика)
preset-bingo-domino = Бинго (домино)
preset-42 = 42 вдвоём
suit = { $suit ->
    [0] пустышки
    [1] единицы
    [2] двойки
    [3] тройки
    [4] четвёрки
    [5] пятёрки
   *[6] шестёрки
}
suit-short = { $suit ->
    [0] пустышки (0)
    [1] единицы (1)
    [2] двойки (2)
    [3] тройки (3)
    [4] четвёрки (4)
    [5] пятёрки (5)
   *[6] шестёрки (6)
}

## Challenges

challenge-anyone = 🎲 <b>{ $creator }</b> ищет соперника: { $game }, до { game-points-target }.
challenge-invite = 🎲 <b>{ $creator }</b> вызывает <b>{ $opponent }</b>: { $game }, до { game-points-target }.
game-points-target = { $target } { $target ->
    [one] зачётного очка
   *[other] зачётных очков
}
challenge-expires = Вызов действует { minutes }.
challenge-withdrawn = Вызов от { $creator } отозван.
challenge-cancelled = Вызов от { $creator } снят администратором.
challenge-expired = ⌛ Вызов от { $creator } истёк — его никто не принял.
challenge-accepted = 🀄 <b>{ $a }</b> против <b>{ $b }</b>: { $game }, до { game-points-target }. Камни розданы — каждому в личку с ботом.
btn-join = 🤝 Принять вызов
btn-join-here = ⚡ Принять здесь
btn-withdraw = ✖ Отозвать
btn-open-bot = 🤖 Открыть бота

## Table (group)

table-title = <b>{ $game }</b> · партия { $deal }
table-score = { $a } <b>{ $sa }:{ $sb }</b> { $b } · до { $target }
table-trump = Козыри: { suit } { $tile }
table-trump-hidden = Козыри: { suit }
table-reserve = В резерве: { tiles }
table-closed = 🔒 Резерв закрыт: { $name }
table-lead = На столе: { $tile } ({ $name })
table-last = Предыдущая взятка: { $lead } { $reply } → { $name }
table-tricks = Взятки: { $a } { $ta } · { $b } { $tb }
table-claim = 📣 { $name }: { doubles } { $tiles } — { $state ->
    [open] ждёт исхода взятки
    [won] засчитано
   *[lost] не засчитано
}
table-turn = ▶️ Ход: <b>{ $name }</b>
table-choosing = ▶️ <b>{ $name }</b> выбирает: открытый { $tile } или закрытый камень
table-stock = В резерве: { tiles }
table-phase = { $phase ->
    [draw] Добор (без козырей, масть не обязательна)
    [bidding] Торговля
    [trumps] Назначение козырей
   *[play] Розыгрыш
}
table-bids = Ставки: { $list }
bid-pass = пас
table-contract = Контракт: { $name } — { $bid }, козыри: { $trump }
table-contract-pending = Контракт: { $name } — { $bid }
table-points = Очки: { $a } { $pa } · { $b } { $pb }
table-draw-tricks = Взятки в доборе: { $a } { $ta } · { $b } { $tb }

## Panel (private)

panel-title = <b>{ $game }</b> · партия { $deal } · против { $opponent }
panel-score = Счёт <b>{ $me }:{ $them }</b> (до { $target })
panel-points = Ваши очки: <b>{ $points }</b> · взятки { $mine }:{ $theirs }
panel-points-42 = Очки: вы { $mine } · соперник { $theirs } · взятки { $tm }:{ $tt }
panel-opponent-claims = Соперник показал: { $tiles }
panel-lead = Ваш заход.
panel-reply = Ваш ответ на { $tile }.
panel-wait = ⏳ Ход соперника ({ $name }).
panel-choose = Возьмите открытый { $tile } или закрытый камень.
panel-bid-first = Ваша ставка (от { $min }) или пас.
panel-bid = Ваша ставка (выше { $bid }) или пас.
panel-trumps = Назовите козыри.
panel-hand = Ваши камни: { $tiles }
panel-hint = Камнями в скобках сейчас ходить нельзя.
panel-over = Партия окончена.
panel-match-over = Матч окончен.
btn-claim = 📣 { $tile }: заявить { doubles } ({ $value })
claim-value = { $gp ->
    [0] { points }
   *[other] { game-points }
}
btn-close = 🔒 Закрыть резерв
btn-take-indicator = Взять { $tile }
btn-take-hidden = Взять закрытый
btn-pass = Пас
btn-trump = { suit-short }

## Refusals and toasts

refusal-game_over = Партия уже окончена.
refusal-not_your_turn = Сейчас не ваш ход.
refusal-wrong_phase = Сейчас так ходить нельзя.
refusal-not_in_hand = Этого камня нет у вас в руке.
refusal-must_follow_suit = Нужно ответить в масть.
refusal-must_beat = Нужно побить камнем той же масти — он у вас есть.
refusal-must_follow_lower_half = Нужно ответить камнем с младшей половинкой заходного.
refusal-must_trump = Нужно ответить козырем.
refusal-no_claim = Такую заявку сделать нельзя.
refusal-cannot_close = Закрыть резерв сейчас нельзя.
refusal-bid_too_low = Ставка должна быть выше предыдущей.
toast-stale = Эта кнопка устарела — смотрите свежее сообщение.
toast-panel-resent = Панель устарела — свежая пришла ниже в чате с ботом.
toast-old-panel = Это старая панель — пользуйтесь самой новой.
toast-not-your-question = Этот вопрос задан не вам.
toast-not-player = Вы не играете в этом матче.
toast-match-over = Матч уже окончен.
toast-no-match = Матч не найден.
toast-busy = Секунду, ход ещё обрабатывается — нажмите снова.
toast-bad-button = Эта кнопка не работает.
toast-own-challenge = Это ваш вызов — ждём соперника.
toast-not-invited = Этот вызов адресован не вам.
toast-challenge-gone = Вызов уже недействителен.
toast-already-playing = У вас уже идёт матч в этом чате.
toast-challenge-open = У вас уже есть открытый вызов в этом чате.
toast-only-creator = Отозвать вызов может только его автор.
toast-start-bot = Сначала откройте бота в личке — там ваши камни.
toast-admin-only = Это могут только администраторы группы.
toast-storage = Хранилище недоступно, попробуйте через минуту.
toast-error = Что-то пошло не так — попробуйте ещё раз.
toast-done = Готово.

## Errors of commands

error-group-only = Эта команда работает только в группе.
error-private-only = Эта команда работает только в личке с ботом.
error-unknown-game = Не знаю игру «{ $name }». Доступны: { $list }.
error-no-match = У вас нет активного матча.
error-no-challenge = У вас нет открытого вызова в этом чате.
error-internal = Что-то пошло не так — попробуйте ещё раз.
error-storage = Хранилище недоступно, попробуйте через минуту.
error-admin-only = Это могут только администраторы группы.
error-self-challenge = Нельзя вызвать самого себя.
player-blocked = ⚠️ Бот не может написать игроку { $name }: бот заблокирован. Матч ждёт: разблокируйте бота и отправьте ему /hand.
need-start = { $name }, откройте бота в личке, чтобы получить свои камни.

## Results

deal-result = <b>Партия { $deal }</b>: { $a } — { $pa }, { $b } — { $pb }.
deal-no-points = Никто не набрал 70 — зачётных очков нет.
deal-all-passed = Два паса — пересдача, снова открывает { $name }.
deal-score = Счёт матча: { $a } <b>{ $sa }:{ $sb }</b> { $b }.
reason-reached_goal = { $name } +{ $gp }: 70 очков набрано, у соперника { $threshold } или больше.
reason-schneider = { $name } +{ $gp }: 70 очков набрано, у соперника меньше { $threshold }.
reason-no_trick = { $name } +{ $gp }: 70 очков набрано, у соперника ни одной взятки.
reason-closer_failed = { $name } +{ $gp }: соперник закрыл резерв и не набрал 70.
reason-closer_failed_penalty = { $name } +{ $gp }: { $penalty ->
    [first] соперник закрыл резерв до первой взятки и не набрал 70.
   *[notrick] соперник закрыл резерв, не взял ни одной взятки и не набрал 70.
}
reason-reached_goal_after_close = { $name } +{ $gp }: 70 очков набрано после того, как соперник закрыл резерв.
reason-claim = { $name } +{ $gp }: заявлено { $claim }.
reason-bingo_takes_trump_double = { $name } +{ $gp }: бинго взяло козырный дубль!
reason-bid_made = { $name } +{ $gp }: контракт { $bid } выполнен ({ $pts }).
reason-bid_set = { $name } +{ $gp }: контракт соперника { $bid } не выполнен ({ $pts }).
match-won = 🏆 <b>{ $name }</b> выигрывает матч <b>{ $sw }:{ $sl }</b>!
match-surrender = 🏳 { $loser } сдаётся. Победа: <b>{ $winner }</b> ({ $sw }:{ $sl }).
rating-change = Рейтинг: { $winner } { $rw } (+{ $d }), { $loser } { $rl } (−{ $d }).

## Surrender

surrender-confirm = Сдаться в матче против { $opponent }? Это засчитается как поражение.
btn-surrender = 🏳 Да, сдаться
btn-keep-playing = Играть дальше
surrender-kept = Играем дальше.

## Language

lang-choose = Выберите язык · Wybierz język
lang-set = Язык: русский.
btn-lang-ru = 🇷🇺 Русский
btn-lang-pl = 🇵🇱 Polski

## Start and commands

start-welcome = Привет! Я веду матчи в домино «Бинго» и «42» прямо в группе. Добавьте меня в группу и напишите там /play — а свои камни вы получите здесь, в личке.
help-text = <b>Домино: Бинго и 42</b>
    Матч на двоих прямо в группе: свои камни каждый видит в личке с ботом, а группа — стол, взятки и счёт.
    1. Добавьте бота в группу.
    2. В группе: /play — вызов для всех, /play 42 или /play bingo-classic — другая игра, /play в ответ на сообщение — личный вызов его автору.
    3. Соперник нажимает «Принять вызов», и каждый получает свои камни в личку.
    /hand — показать камни заново, /surrender — сдаться, /cancel — снять вызов, /rules — правила, /lang — язык.
btn-add-to-group = ➕ Добавить в группу
cmd-play = Вызвать на матч (Бинго или 42)
cmd-cancel = Снять открытый вызов
cmd-surrender = Сдаться в текущем матче
cmd-lang = Язык бота
cmd-hand = Показать мои камни заново
cmd-start = Начать
cmd-help = Что умеет бот
