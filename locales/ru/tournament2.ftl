# Tournaments: what the organiser or an admin may do (remove a player, stop it), pairings forfeited by busy
# players, leaving in one press.
words-tournament-kick = kick, remove, убрать, исключить
words-tournament-stop = stop, стоп, остановить, завершить
tournament-kick-who = Кого убрать из турнира? Ответь командой /tournament kick на сообщение игрока или напиши /tournament kick @ник.
tournament-kick-not-entrant = { $name } не играет в этом турнире.
tournament-kicked = { $signup ->
    [yes] { $name } — больше не в списке записавшихся на турнир.
   *[no] { $name } — больше не в турнире: все несыгранные матчи (и идущий, если он есть) засчитаны соперникам.
}
tournament-cancel-running = Турнир уже идёт — отменить его нельзя, но можно остановить: /tournament stop. Тогда я опубликую итоги на момент остановки, а чемпиона не будет.
tournament-ko-removed = { $a } — победа без игры ({ $b }: исключение из турнира)
tournament-busy-forfeit = ⌛ Турнир: { $name } слишком долго играет другой матч в этом чате — дольше, чем время на ход ({ $clock }). Победа без игры — <b>{ $opponent }</b>.
tournament-busy-both-rr = ⌛ Турнир: { $a } и { $b } слишком долго играют другие матчи в этом чате — дольше, чем время на ход ({ $clock }). Матч между ними не сыгран, победы нет ни у кого.
tournament-busy-both-ko = ⌛ Турнир: { $a } и { $b } слишком долго играют другие матчи в этом чате — дольше, чем время на ход ({ $clock }). Дальше без игры проходит <b>{ $winner }</b>: у этого игрока выше посев.
tournament-stopped = ⏹ { $name } останавливает турнир досрочно — чемпиона нет.
tournament-stopped-announce = ⏹ { $name } останавливает турнир досрочно — чемпиона нет. { $game }, { tournament-players }. { $format ->
    [rr] Таблица
   *[ko] Сетка
} на момент остановки:
toast-tournament-left-now = 🚪 Ты больше не в турнире: все твои несыгранные матчи турнира (и идущий, если он есть) засчитаны соперникам.
tournament-none = В этом чате сейчас нет турнира. /tournament — открыть запись, /tournament 42 — турнир в другую игру.
