# The post-mortem (🔎) each person gets in private after a match, and the 💡 hints of a match against the computer.
review-head = 🔎 <b>Разбор матча</b>: точность { $accuracy }% ({ $decisions } { $decisions ->
    [one] решение с выбором
    [few] решения с выбором
   *[many] решений с выбором
})
review-clean = Ни одного дорогого решения: сильный компьютер сыграл бы так же.
review-line = { $number }. { $where }: вы сыграли { $played }, сильный уровень предпочёл бы { $best }; это стоило { $cost }% шанса на победу.
review-where-trick = Сдача { $deal }, взятка { $trick }
review-where-deal = Сдача { $deal }, торговля
review-foot = <i>Точность — доля решений, стоивших не больше 1% шанса на победу.</i>
review-no-choices = 🔎 Разбор матча: ни одного решения с выбором — разбирать нечего.
review-failed = 🔎 Разбор матча сделать не удалось.
# A move in words.
move-claim = { $tile } с объявлением дублей
move-close = 🔒 закрыть резерв
move-take-indicator = взять козырную
move-take-hidden = взять закрытую
move-bid = заявка { $n }
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
# The 💡 button of a match against the computer, and its toast.
btn-hint = 💡 Подсказка
hint-toast = 💡 { $move } — { $why }. Шанс на победу { $chance }%, следующий ход хуже на { $gap }%.
hint-toast-only = 💡 { $move } — { $why }. Шанс на победу { $chance }%.
hint-why-lead = лучший заход
hint-why-reply = лучший ответ на заход
hint-why-claim = объявить дубли ради очков
hint-why-close = закрыть: очков в руке хватает до цели
hint-why-take-indicator = забрать козырную
hint-why-take-hidden = закрытая полезнее козырной
hint-why-bid = рука делает { $n }
hint-why-pass = рука не тянет на заявку
hint-why-trumps = больше всего очков с этими козырями
hint-not-now = Подсказка — только в ваш ход, на последней панели.
hint-not-here = Подсказки есть только в игре против компьютера.
hint-why-wins-trick = берёт взятку
hint-why-gives-trick = отдаёт взятку подешевле
hint-why-claim-value = объявить дубли: { $value }
hint-why-close-goal = закрыть: очков в руке хватает до { $goal }
