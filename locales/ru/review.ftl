# The post-mortem (🔎) each person gets in private after a match, and the 💡 hints of a match against the computer.
# A share of the chance to win ($cost, $gap) comes as a number and is written with the language's decimal comma.
review-head = 🔎 <b>Разбор матча</b>: точность { $accuracy }% (решений: { $decisions })
review-clean = Ни одной заметной ошибки: сильный компьютер сыграл бы так же.
review-line = { $number }. { $where }. Ты: { $played } · сильный компьютер: { $best } · цена: { NUMBER($cost, minimumFractionDigits: 1, maximumFractionDigits: 1) }% шанса на победу.
review-where-trick = Партия { $deal }, взятка { $trick }
review-where-deal = Партия { $deal }, торговля и козыри
review-foot = <i>Точность — доля решений, стоивших не больше 1% шанса на победу.</i>
review-no-choices = 🔎 Разбор матча: выбирать было не из чего — разбирать нечего.
review-failed = 🔎 Разбор матча сделать не удалось.
# A move in words.
move-claim = { $tile } с объявлением дублей
move-close = 🚧 закрыть резерв
move-take-indicator = взять открытый козырь
move-take-hidden = взять закрытый
move-bid = ставка { $n }
move-pass = пас
move-trumps = козыри: { $suit }
# The accuracy under the match result and on the card.
accuracy-of = { $name } { $accuracy }%
accuracy-line = 🎯 Точность: { $list }
card-accuracy = точность { $accuracy }%
hints-of = { $name }: 💡 { $n } { $n ->
    [one] подсказка
    [few] подсказки
   *[many] подсказок
}
card-hints = 💡 { $n } { $n ->
    [one] подсказка
    [few] подсказки
   *[many] подсказок
}
# The 💡 button of a match against the computer, and its toast: the move, then why (a phrase after a dash).
btn-hint = 💡 Подсказка
hint-toast = 💡 { $move } — { $why }. Шанс на победу { $chance }%, лучшая альтернатива хуже на { NUMBER($gap, minimumFractionDigits: 1, maximumFractionDigits: 1) }%.
hint-toast-only = 💡 { $move } — { $why }. Шанс на победу { $chance }%.
hint-why-lead = лучший заход
hint-why-reply = лучший ответ на заход
hint-why-claim = очки за объявленные дубли
hint-why-close = очков в руке хватит до цели
hint-why-take-indicator = открытый козырь полезнее закрытого
hint-why-take-hidden = закрытый полезнее открытого козыря
hint-why-bid = рука тянет на { $n }
hint-why-pass = рука не тянет на ставку
hint-why-trumps = больше всего очков с этими козырями
hint-not-now = Подсказка — только в твой ход, на последней панели.
hint-not-here = Подсказки есть только в игре против компьютера.
hint-why-wins-trick = берёт взятку
hint-why-gives-trick = отдаёт взятку подешевле
hint-why-claim-value = это { $value }
hint-why-close-goal = очков в руке хватит до { $goal }
