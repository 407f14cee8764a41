# Tournaments in a group: the sign-up message, then the standings (or the bracket) edited in place, the champion.
cmd-tournament = Турнир для 3–16 игроков
tournament-players = { $n } { $n ->
    [one] игрок
    [few] игрока
   *[many] игроков
}
tournament-signup-head = 🏆 <b>Турнир</b>: { $game }, до { game-points-target }. Организатор: <b>{ $creator }</b>.
tournament-signup-how = ✅ — записаться (нажми ещё раз, чтобы отменить запись). ▶ — старт: его даёт организатор или админ, когда наберётся от 3 до 16 игроков. До 6 игроков — каждый с каждым, больше — на выбывание.
tournament-signup-list = Записались ({ $n }): { $names }
tournament-signup-nobody = Пока никто не записался.
tournament-signup-closes = До закрытия записи: { $left } — если турнир не начнут раньше.
tournament-cancelled = ✖ Турнир отменён. Организатор: { $creator }.
tournament-expired = ⌛ Запись на турнир закрыта: за сутки его так и не начали. Организатор: { $creator }.
tournament-head = 🏆 <b>Турнир</b>: { $game }, до { game-points-target } · { $format ->
    [rr] каждый с каждым
   *[ko] на выбывание
}, { tournament-players }
tournament-clock = На ход — { $clock }.
tournament-rr-legend = Место · игрок · победы–поражения · очки
tournament-rr-row = { $place }. { $name } · { $won }–{ $lost } · { $points }
tournament-left-mark = 🚪
tournament-now = ▶ Сейчас играют: { $pairs }
tournament-left = Осталось матчей: { $n }
tournament-round = { $matches ->
    [1] Финал
    [2] Полуфинал
    [4] 1/4 финала
   *[other] 1/8 финала
}
tournament-ko-played = { $a } { $sa }:{ $sb } { $b }
tournament-ko-playing = { $a } — { $b } ▶
tournament-ko-waiting = { $a } — { $b }
tournament-ko-bye = { $a } — проходит дальше без игры
tournament-ko-forfeit = { $a } — победа без игры ({ $b }: { $b_left ->
    [yes] выход из турнира
   *[no] неявка
})
tournament-ko-nobody = никто не проходит дальше
tournament-ko-nobody-of = { $a } — { $b }: никто не проходит дальше
tournament-ko-tbd = ?
tournament-leave-hint = 🚪 — выйти из турнира: оставшиеся матчи засчитаются соперникам.
tournament-champion = 🏆 Чемпион турнира — <b>{ $name }</b>!
tournament-no-champion = 🏁 Турнир окончен без чемпиона: все вышли.
tournament-over-caption = 🏆 Турнир окончен! Чемпион — <b>{ $name }</b>. { $game }, { tournament-players }.
tournament-over-nobody = 🏁 Турнир окончен без чемпиона. { $game }, { tournament-players }.
btn-tournament-join = ✅ Участвую
btn-tournament-start = ▶ Начать турнир
btn-tournament-leave = 🚪 Выйти из турнира
toast-tournament-joined = ✅ Ты в турнире!
toast-tournament-unjoined = Запись на турнир снята.
toast-tournament-full = Мест нет: в турнире уже 16 игроков.
toast-tournament-small = Для старта нужно хотя бы 3 игрока.
toast-tournament-gone = Этого турнира уже нет или запись закрыта.
toast-tournament-creator-only = Это может сделать только организатор турнира или администратор его группы.
toast-tournament-not-entered = Ты не играешь в этом турнире.
tournament-on = В этом чате уже есть турнир — вот он:
tournament-in-groups = Турниры проводятся в группах: добавь меня в группу и напиши там /tournament.
tournament-joined-private = ✅ Запись на турнир принята: { $game }. Когда организатор даст старт, камни для твоих матчей будут приходить сюда.
tournament-not-started = Чтобы играть в турнире, сначала открой бота в личке — там будут твои камни.
stats-tournaments = 🏆 Выиграно турниров: { $n }
picture-tournament-title = Турнир · { $game }
picture-tournament-subtitle = Чемпион: { $name } · { tournament-players } · { $date }
picture-tournament-subtitle-nobody = Без чемпиона · { tournament-players } · { $date }
picture-tournament-col-player = Игрок
picture-tournament-col-played = И
picture-tournament-col-won = В
picture-tournament-col-lost = П
picture-tournament-col-points = Очки
picture-tournament-bye = —
picture-tournament-forfeit = без игры
picture-tournament-player = Игрок
