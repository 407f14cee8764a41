# Who may act on what: a challenge, a tournament, a match or a replay belongs to its own chat.

toast-not-member = Это могут только участники группы, где открыт этот вызов или турнир.
replay-not-member = Повтор этого матча могут смотреть только его игроки и участники группы, где он сыгран.
toast-creator-playing = Автор вызова сейчас играет другой матч в этом чате — вызов подождёт, пока тот не закончится.
toast-no-rematch-in-tournament = В турнире реванша нет: следующие пары назначает турнир.
