# Tournaments: what the organiser or an admin may do (remove a player, stop it), pairings forfeited by busy
# players, leaving in one press.
words-tournament-kick = kick, remove, убрать, исключить
words-tournament-stop = stop, стоп, остановить, завершить
tournament-manage-only = Это может только организатор турнира или администратор группы.
tournament-kick-who = Кого убрать из турнира? Ответь командой /tournament kick на сообщение игрока или напиши /tournament kick @username.
tournament-kick-not-entrant = { $name } не играет в этом турнире.
tournament-kicked = { $signup ->
    [yes] { $name } — убран(а) из записи на турнир.
   *[no] { $name } — больше не в турнире: текущий матч турнира сдан, оставшиеся засчитаны соперникам.
}
tournament-cancel-running = Турнир уже идёт — его не отменить, но можно остановить: /tournament stop. Таблица на этот момент будет опубликована, чемпиона не будет.
tournament-ko-removed = { $a } — победа без игры: { $b } исключён(а) из турнира
tournament-busy-forfeit = ⌛ Турнир: { $name } слишком долго занят(а) другим матчем в чате — дольше, чем время на ход: { $clock }. Победа без игры — <b>{ $opponent }</b>.
tournament-busy-both-rr = ⌛ Турнир: { $a } и { $b } слишком долго заняты другими матчами в чате — дольше, чем время на ход: { $clock }. Их матч не сыгран, победы нет ни у кого.
tournament-busy-both-ko = ⌛ Турнир: { $a } и { $b } слишком долго заняты другими матчами в чате — дольше, чем время на ход: { $clock }. Дальше без игры проходит <b>{ $winner }</b> — у него (у неё) посев выше.
tournament-stopped = ⏹ Турнир остановлен досрочно, чемпиона нет. Остановил(а): { $name }.
tournament-stopped-announce = ⏹ Турнир остановлен досрочно — чемпиона нет. { $game }, { tournament-players }. Остановил(а): { $name }. { $format ->
    [rr] Таблица
   *[ko] Сетка
} на момент остановки:
toast-tournament-left-now = 🚪 Ты больше не в турнире: текущий матч турнира сдан, оставшиеся засчитаны соперникам.
