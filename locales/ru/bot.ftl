## A Telegram name cannot be declined: a player's name only ever stands in the
## nominative (as the subject, after a colon or a dash, in parentheses), never
## after a preposition. The register is informal («ты»): friends play in a group.

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

## Games and suits

preset-bingo = Бинго
preset-bingo-classic = Бинго (бить обязательно)
preset-bingo-domino = Бинго (козырять обязательно)
preset-42 = 42 вдвоём
# Words /play and /rules accept for each game (the first is shown in hints); the other language's work too.
words-bingo = бинго, обычное
words-bingo-classic = классика, классическое, бить
words-bingo-domino = козыри, козырять, домино
words-42 = 42
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
# The names the sources give to declaring n doubles, by preset (nothing where a count has none).
claim-name = { $preset ->
    [bingo-classic] { $n ->
        [2] «дуплет»
        [3] «тройник»
        [4] «двойной дуплет»
        [5] «король»
        [6] «император»
       *[7] «непобедимый»
    }
    [bingo-domino] { $n ->
        [4] «король»
        [6] «император»
        [7] «непобедимый»
       *[other] {""}
    }
   *[bingo] { $n ->
        [5] «король»
        [6] «император»
        [7] «непобедимый»
       *[other] {""}
    }
}

## Challenges

challenge-anyone = 🎲 <b>{ $creator }</b> ищет соперника: { $game }, до { game-points-target }.
challenge-invite = 🎲 <b>{ $creator }</b> бросает вызов. Соперник: <b>{ $opponent }</b>. { $game }, до { game-points-target }.
game-points-target = { $target } { $target ->
    [one] зачётного очка
   *[other] зачётных очков
}
challenge-expires = Вызов действует { duration-acc }.
challenge-withdrawn = ✖ Вызов отозван. Автор вызова: { $creator }.
challenge-cancelled = ✖ Вызов снят администратором. Автор вызова: { $creator }.
challenge-expired = ⌛ Вызов истёк — его никто не принял. Автор вызова: { $creator }.
challenge-accepted = 🎲 Матч начался: <b>{ $a }</b> и <b>{ $b }</b> — { $game }, до { game-points-target }. Камни уже у каждого в личке с ботом.
challenge-accepted-computer = 🎲 Матч начался: <b>{ $a }</b> — { $b }. { $game }, до { game-points-target }. Камни — в личке с ботом, а компьютер ходит сам.
btn-join = 🤝 Принять вызов
btn-withdraw = ✖ Отозвать
btn-open-bot = 🤖 Открыть бота

## Table (group)

table-title = <b>{ $game }</b> · партия { $deal }
table-commitment = 🔒 Отпечаток расклада: <code>{ $hash }</code> (ключ — после партии)
table-score = Счёт матча: { $a } — <b>{ $sa }</b>, { $b } — <b>{ $sb }</b> · до { $target }
table-trump = Козыри: { suit } { $tile }
table-trump-hidden = Козыри: { suit }
table-reserve = В резерве: { tiles }
table-reserve-empty = Резерв пуст — теперь ходим в масть.
table-closed = 🚧 Резерв закрыт — { $name } обязуется набрать 70.{ $playing ->
    [yes] {" "}Теперь ходим в масть.
   *[no] {""}
}
table-lead = На столе: { $name } { $tile }
table-last = Предыдущая взятка: { $leader } { $lead } · { $other } { $reply } → { $winner }
table-tricks = Взятки — { $a }: { $ta } · { $b }: { $tb }
table-claim = 📣 { $name } объявляет { doubles }{ $title }: { $tiles } — { $state ->
    [open] ждём исхода взятки
    [won] засчитано
   *[lost] не засчитано: взятку взял соперник
}
table-turn = ▶️ Ход: <b>{ $name }</b>
table-choosing = ▶️ <b>{ $name }</b> выбирает: открытый { $tile } или закрытый камень
table-stock = В резерве: { tiles }
table-phase = { $phase ->
    [draw] Добор: козырей нет, в масть ходить не обязательно
    [bidding] Торговля
    [trumps] Назначение козырей
   *[play] Розыгрыш
}
table-bids = Ставки: { $list }
bid-pass = пас
table-contract = Контракт: { $name } — { $bid }, козыри: { $trump }
table-contract-pending = Контракт: { $name } — { $bid }
table-points = Очки — { $a }: { $pa } · { $b }: { $pb }
table-draw-tricks = Взятки в доборе — { $a }: { $ta } · { $b }: { $tb }

## Panel (private)

panel-title = <b>{ $game }</b> · партия { $deal } · соперник: { $opponent }
panel-score = Счёт матча: ты <b>{ $me }</b>, соперник <b>{ $them }</b> · до { $target }
panel-points = Твои очки: <b>{ $points }</b>/{ $goal } · взятки: ты { $mine }, соперник { $theirs }
panel-points-42 = Очки: ты <b>{ $mine }</b>, соперник <b>{ $theirs }</b> · взятки: ты { $tm }, соперник { $tt }
panel-opponent-claims = Соперник показал: { $tiles }
panel-lead = Твой заход.
panel-reply = Твой ответ на { $tile }.
panel-wait = ⏳ Ход соперника: { $name }.
panel-wait-reply = ⏳ { $name } отвечает на твой { $tile }.
panel-choose = Возьми открытый { $tile } или закрытый камень.
panel-bid-first = Твоя ставка (от { $min }) или пас.
panel-bid = Твоя ставка (выше { $bid }) или пас.
panel-trumps = Назначь козыри.
panel-hand = Твои камни: { $tiles }
panel-hint = 🚫 — этими камнями сейчас ходить нельзя (нажми — скажу почему).
panel-over = Партия окончена.
panel-match-over = Матч окончен.
btn-claim = 📣 { $tile }: { doubles }, { $value }
# The worth of a claim, short: the button has room for 32 characters only.
claim-value = { $gp ->
    [0] +{ points }
   *[other] +{ $n } зач. { $n ->
        [one] очко
        [few] очка
       *[many] очков
    }
}
btn-close = 🚧 Закрыть резерв
btn-take-indicator = Взять { $tile }
btn-take-hidden = Взять закрытый
btn-pass = Пас
btn-trump = { suit-short }

## Refusals and toasts

refusal-game_over = Партия уже окончена.
refusal-not_your_turn = Сейчас не твой ход.
refusal-wrong_phase = Сейчас так ходить нельзя.
refusal-not_in_hand = Этого камня у тебя нет.
refusal-must_follow_suit = Ходим в масть: на { $tile } нужны некозырные { suit } — они у тебя есть.
refusal-must_beat = Ходим в масть и бьём: на { $tile } нужен некозырный камень той же масти, который его побьёт, — он у тебя есть.
refusal-must_follow_lower_half = Ходим в масть: на { $tile } нужны некозырные { suit }, но их у тебя нет — значит, нужен некозырный камень с { $low } (младшая половинка { $tile }), а он у тебя есть.
refusal-must_trump = На { $tile } нужно ответить козырем ({ suit }) — он у тебя есть.
refusal-no_claim = Так объявить дубли нельзя.
refusal-cannot_close = Закрыть резерв сейчас нельзя.
refusal-bid_too_low = Ставка должна быть выше предыдущей.
toast-stale = Эта кнопка устарела — смотри свежее сообщение.
toast-panel-resent = Панель устарела — свежая уже внизу чата с ботом.
toast-old-panel = Это старая панель — пользуйся самой новой.
toast-not-your-question = Этот вопрос задан не тебе.
toast-not-player = Ты не играешь в этом матче.
toast-match-over = Матч уже окончен.
toast-no-match = Матч не найден.
toast-busy = Секунду, ход ещё обрабатывается — нажми снова.
toast-bad-button = Эта кнопка не работает.
toast-own-challenge = Это твой вызов — ждём соперника.
toast-not-invited = Этот вызов адресован не тебе.
toast-challenge-gone = Вызов уже недействителен.
toast-already-playing = У тебя уже идёт матч в этом чате.
toast-challenge-open = У тебя уже есть открытый вызов в этом чате.
toast-only-creator = Отозвать вызов может только его автор или администратор группы, где он открыт.
toast-start-bot = Сначала открой бота в личке — там будут твои камни.
toast-admin-only = Это могут только администраторы группы.
toast-storage = Не получается сохранить ход — попробуй через минуту.
toast-error = Что-то пошло не так — попробуй ещё раз.
toast-done = Готово.

## Errors of commands

error-group-only = Эта команда работает только в группе.
error-private-only = Эта команда работает только в личке с ботом.
error-unknown-game = Не знаю игру «{ $name }». Можно: { $list }.
error-bad-username = «{ $name }» — не имя пользователя Telegram: после @ идут от 5 до 32 латинских букв, цифр или «_».
error-no-match = У тебя нет активного матча.
error-no-challenge = У тебя нет открытого вызова в этом чате.
error-internal = Что-то пошло не так — попробуй ещё раз.
error-storage = Не получается сохранить данные — попробуй через минуту.
error-admin-only = Это могут только администраторы группы.
error-not-a-person = Играть могут только люди со своим аккаунтом: от имени канала или анонимного администратора вызвать на матч нельзя.
error-opponent-not-a-person = Вызвать можно только человека: канал, анонимный администратор или бот играть не могут.
error-self-challenge = Нельзя вызвать самого себя.
player-blocked = ⚠️ { $name }: бот заблокирован в личке, и камни туда не доходят. Матч ждёт — разблокируй бота и отправь ему /hand.
need-start = { $name }, открой бота в личке, чтобы получить свои камни.

## Results

deal-result = <b>Партия { $deal }</b>: { $a } — { $pa }, { $b } — { $pb }.
deal-no-points = Никто не набрал 70 — зачётных очков нет.
deal-all-passed = Два паса — пересдача. Первая рука снова: { $name }.
deal-score = Счёт матча: { $a } — <b>{ $sa }</b>, { $b } — <b>{ $sb }</b>.
deal-secret = 🔑 Ключ расклада: <code>{ $secret }</code> — по нему можно проверить отпечаток 🔒 и расклад
reason-reached_goal = { $name } +{ $gp }: 70 очков набрано, у соперника { $threshold } { $threshold ->
    [one] очко
    [few] очка
   *[many] очков
} или больше.
reason-schneider = { $name } +{ $gp }: 70 очков набрано, у соперника меньше { $threshold } { $threshold ->
    [one] очка
   *[other] очков
}.
reason-no_trick = { $name } +{ $gp }: 70 очков набрано, у соперника ни одной взятки.
reason-closer_failed = { $name } +{ $gp }: соперник закрыл резерв и не набрал 70.
reason-closer_failed_penalty = { $name } +{ $gp }: { $penalty ->
    [first] соперник закрыл резерв до первой взятки и не набрал 70.
   *[notrick] соперник закрыл резерв, не взял ни одной взятки и не набрал 70.
}
reason-reached_goal_after_close = { $name } +{ $gp }: 70 очков набрано после того, как соперник закрыл резерв.
reason-claim = { $name } +{ $gp }: объявлено { $claim }.
reason-bingo_takes_trump_double = { $name } +{ $gp }: бинго взяло козырный дубль!
reason-bid_made = { $name } +{ $gp }: контракт { $bid } выполнен ({ $pts }).
reason-bid_set = { $name } +{ $gp }: соперник не выполнил контракт { $bid } ({ $pts }).
match-won = 🏆 <b>{ $name }</b> выигрывает матч <b>{ $sw }:{ $sl }</b>!
match-surrender = 🏳 { $loser } сдаётся. Победа: <b>{ $winner }</b> ({ $sw }:{ $sl }).
rating-change = Рейтинг: { $winner } { $rw } (+{ $d }), { $loser } { $rl } (−{ $d }).

## Surrender

surrender-confirm = Сдаться? Соперник: { $opponent }. Матч засчитается как поражение.
btn-surrender = 🏳 Да, сдаюсь
btn-keep-playing = Играть дальше
surrender-kept = Играем дальше.

## Language

lang-choose = Выбери язык · Wybierz język
lang-set = Язык: русский.
btn-lang-ru = 🇷🇺 Русский
btn-lang-pl = 🇵🇱 Polski

## Start and commands

start-welcome = Привет! Я веду матчи в домино «Бинго» и «42» прямо в группе. Добавь меня в группу и напиши там /play — а свои камни ты получишь здесь, в личке.
help-text = <b>Домино: Бинго и 42</b>
    Матч на двоих прямо в группе: свои камни каждый видит в личке с ботом, а группа — стол, взятки и счёт.
    1. Добавь бота в группу.
    2. В группе: /play — вызов для всех, /play 42 или /play классика — другая игра, /play в ответ на сообщение — личный вызов его автору.
    3. Соперник нажимает «Принять вызов», и каждому в личку приходят его камни.
    🤝 Без группы: в любом чате с другом напиши @ и имя бота и выбери игру — вызов появится в чате, друг жмёт «Принять вызов», и это сообщение станет столом. Сезоны, таблица группы и турниры бывают только в группах; у таких матчей свой рейтинг (/top в личке).
    Не с кем играть? /play бот в группе или /play здесь, в личке, — матч с компьютером; уровень: /play бот лёгкий, средний или сильный. В матче с компьютером кнопка 💡 подсказывает ход.
    🎴 Кнопка «Стол» под твоей панелью и под столом в группе открывает стол и твои камни на одном экране: там можно ходить касанием.
    После матча 🔁 под результатом — реванш: нажали оба, и новый матч начинается сразу. В личку приходит 🔎 разбор матча: твои самые дорогие ошибки и точность. /replay — повторы твоих матчей ход за ходом, с открытыми камнями.
    🔒 Расклады честные: /seed &lt;слова&gt; в личке с ботом задаёт твоё зерно для раскладов (бот покажет его; сменить можно в любой момент; если не задать, зерно случайное).
    🏆 /tournament — турнир для 3–16 игроков: запись кнопкой ✅, старт ▶, таблица обновляется сама; организатору и админам: /tournament stop — остановить, /tournament kick — убрать игрока.
    /top — сезон этого месяца в чате (/top за всё время — весь рейтинг чата, /top все — по всем чатам), /stats в ответ на сообщение игрока — твои личные встречи с ним, /hand — показать камни заново, /surrender — сдаться, /cancel — снять вызов, /rules — правила, /lang — язык.
btn-add-to-group = ➕ Добавить в группу
cmd-play = Вызвать на матч (Бинго или 42)
cmd-cancel = Снять открытый вызов
cmd-surrender = Сдаться в текущем матче
cmd-lang = Язык бота
cmd-hand = Показать мои камни заново
cmd-start = Начать
cmd-help = Что умеет бот

## Turn clock

# A span of time ($unit: s, m, h or d; $n of them) in the nominative ("1 минута"): after a colon or a dash only.
duration = { $unit ->
    [s] { $n } { $n ->
        [one] секунда
        [few] секунды
       *[many] секунд
    }
    [m] { $n } { $n ->
        [one] минута
        [few] минуты
       *[many] минут
    }
    [h] { $n } { $n ->
        [one] час
        [few] часа
       *[many] часов
    }
   *[d] { $n } { $n ->
        [one] день
        [few] дня
       *[many] дней
    }
}
# The same span in the accusative ("1 минуту"): after a preposition («через», «за», «на») or a verb («действует»).
duration-acc = { $unit ->
    [s] { $n } { $n ->
        [one] секунду
        [few] секунды
       *[many] секунд
    }
    [m] { $n } { $n ->
        [one] минуту
        [few] минуты
       *[many] минут
    }
    [h] { $n } { $n ->
        [one] час
        [few] часа
       *[many] часов
    }
   *[d] { $n } { $n ->
        [one] день
        [few] дня
       *[many] дней
    }
}
clock-off = без ограничения
panel-clock = ⏰ Время на ход: { $left } — не успеешь, засчитают поражение.
reminder-private = ⏰ Твой ход! Осталось времени: { $left }. Не успеешь — засчитают поражение.
reminder-group = ⏰ <a href="tg://user?id={ $id }">{ $name }</a>, твой ход — осталось времени: { $left }.
claim-offer = ⌛ Соперник молчит. Без ходов: { $idle }. Можешь засчитать себе победу, а сопернику — поражение.
toast-opponent-moved = Соперник уже сходил — играем дальше.
toast-claim-not-yours = Засчитать себе победу может только тот, кто ждёт хода соперника.
btn-claim-win = 🏆 Засчитать себе победу
toast-too-early = Пока рано: у соперника ещё есть время на ход.
match-forfeit = ⏰ Ход не сделан вовремя — { $loser } проигрывает матч. Победа: <b>{ $winner }</b> ({ $sw }:{ $sl }).
match-abandoned = 💤 Матч остановлен: слишком долго не было ходов. Счёт: { $a } — <b>{ $sa }</b>, { $b } — <b>{ $sb }</b>. Матч не засчитан, рейтинг не изменился; можно начинать новый: /play

## The computer (a seat the bot plays)

computer-easy = 🤖 Компьютер (лёгкий)
computer-normal = 🤖 Компьютер (средний)
computer-hard = 🤖 Компьютер (сильный)
level-easy = лёгкий
level-normal = средний
level-hard = сильный
btn-computer-easy = 🤖 Лёгкий
btn-computer-normal = 🤖 Средний
btn-computer-hard = 🤖 Сильный
challenge-computer-hint = Не хочешь ждать? Автор вызова может сыграть с компьютером — кнопки 🤖 ниже.
# Words /play takes for the computer and its levels (comma-separated, any case).
words-computer = бот, компьютер, комп
words-level-easy = лёгкий, легкий, легко
words-level-normal = средний, нормальный
words-level-hard = сильный, сложный, трудный
toast-computer-creator-only = Сыграть с компьютером вместо этого вызова может только автор вызова.
cmd-play-computer = Матч с компьютером (Бинго или 42)

## A member's flood of commands in a group (the first one left unanswered)

flood-notice = { $name }, слишком много команд подряд — отвечу снова через минуту.

## The greeting when the bot is added to a group (once a day at most)

greeting = 👋 Привет! Я веду здесь матчи в домино «Бинго» и «42» на двоих: свои камни каждый получает в личке, а группа смотрит стол и счёт.
    Начать: /play — вызов для всех, /play бот — матч с компьютером. Правила: /rules, помощь: /help.
    Администраторы могут выбрать язык группы кнопками ниже.
