# Replays: a finished match shown again step by step, both hands open (/replay, /start r_<match>).
cmd-replay = Повторы моих последних матчей
replay-list = 🎞 <b>Повторы</b>: выбери матч — покажу его ход за ходом; камни обоих игроков открыты.
replay-none = У тебя пока нет законченных матчей — повторять нечего.
replay-private-only = 🎞 Повторы смотрят в личке с ботом: напиши там /replay.
replay-match-button = { $opponent } · { $game } · { $mine }:{ $theirs } · { $date }
replay-gone = Такого матча нет, или его повтор уже стёрт: повторы хранятся недолго после конца матча.
replay-active = Этот матч ещё идёт — повтор откроется, когда он закончится.
replay-empty = В этом матче не сыграно ни одного хода — повторять нечего.
replay-at-start = Это начало матча.
replay-at-end = Это конец матча.
replay-title = 🎞 <b>Повтор</b>: { $a } — { $b } · { $game }
replay-position = Партия { $deal } из { $deals } · шаг { $step } из { $steps }
replay-not-kept = Партия { $deal } сыграна до того, как бот начал хранить повторы: видны только её итоги.
replay-deal-points = Зачётные очки за партию — { $a }: { $pa } · { $b }: { $pb }
replay-hand = ✋ { $name }: { $tiles }
replay-link = 🎞 <a href="{ $url }">Повтор матча</a>
history-replay = <a href="{ $url }">🎞 повтор</a>
btn-replay-first = ⏮
btn-replay-prev = ◀
btn-replay-next = ▶
btn-replay-last = ⏭
