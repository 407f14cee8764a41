# Who may act on what: a challenge, a tournament, a match or a replay belongs to its own chat.

toast-not-member = Это доступно только участникам той группы, где это открыто.
replay-not-member = Этот матч могут пересмотреть только его игроки и участники группы, где он сыгран.
toast-creator-playing = Автор вызова сейчас играет другой матч в этом чате — вызов подождёт, пока он не закончит.
toast-no-rematch-in-tournament = В турнире реванша нет: следующие пары назначает турнир.
