# Tournaments: what the organiser or an admin may do (remove a player, stop it), pairings forfeited by busy
# players, leaving in one press.
words-tournament-kick = kick, remove, убрать, исключить
words-tournament-stop = stop, стоп, остановить, завершить
tournament-kick-who = Кого убрать из турнира? Ответь командой /tournament kick на сообщение игрока или напиши /tournament kick @username.
tournament-kick-not-entrant = { $name } не играет в этом турнире.
tournament-kicked = { $signup ->
    [yes] { $name } больше нет в списке записавшихся на турнир.
   *[no] { $name } — больше не в турнире: текущий матч турнира сдан, оставшиеся засчитаны соперникам.
}
tournament-cancel-running = Турнир уже идёт — его не отменить, но можно остановить: /tournament stop. Таблица на этот момент будет опубликована, чемпиона не будет.
tournament-ko-removed = { $a } — победа без игры ({ $b }: исключение из турнира)
tournament-busy-forfeit = ⌛ Турнир: { $name } играет другой матч в чате дольше, чем время на ход ({ $clock }). Победа без игры — <b>{ $opponent }</b>.
tournament-busy-both-rr = ⌛ Турнир: { $a } и { $b } играют другие матчи в чате дольше, чем время на ход ({ $clock }). Их матч не сыгран, победы нет ни у кого.
tournament-busy-both-ko = ⌛ Турнир: { $a } и { $b } играют другие матчи в чате дольше, чем время на ход ({ $clock }). Дальше без игры проходит <b>{ $winner }</b> — как игрок с более высоким посевом.
tournament-stopped = ⏹ Турнир остановлен досрочно ({ $name }), чемпиона нет.
tournament-stopped-announce = ⏹ Турнир остановлен досрочно ({ $name }) — чемпиона нет. { $game }, { tournament-players }. { $format ->
    [rr] Таблица
   *[ko] Сетка
} на момент остановки:
toast-tournament-left-now = 🚪 Ты больше не в турнире: текущий матч турнира сдан, оставшиеся засчитаны соперникам.
tournament-none = В этом чате сейчас нет турнира. /tournament — открыть запись, /tournament 42 — на другую игру.
