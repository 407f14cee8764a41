# Replays: a finished match shown again step by step, both hands open (/replay, /start r_<match>).
cmd-replay = Powtórki moich ostatnich meczów
replay-list = 🎞 <b>Powtórki</b>: wybierz mecz — pokażę go ruch po ruchu, z odkrytymi kamieniami obu graczy.
replay-none = Nie masz jeszcze zakończonych meczów — nie ma czego powtarzać.
replay-private-only = 🎞 Powtórki ogląda się na prywatnym czacie z botem: napisz tam /replay.
replay-match-button = { $opponent } · { $game } · { $mine }:{ $theirs } · { $date }
replay-gone = Nie ma takiego meczu albo jego powtórka została już usunięta: powtórki są przechowywane tylko przez pewien czas po zakończeniu meczu.
replay-active = Ten mecz jeszcze trwa — powtórka będzie dostępna, gdy się skończy.
replay-empty = W tym meczu nie zagrano żadnego ruchu — nie ma czego powtarzać.
replay-at-start = To początek meczu.
replay-at-end = To koniec meczu.
replay-title = 🎞 <b>Powtórka</b>: { $a } — { $b } · { $game }
replay-position = Rozdanie { $deal } z { $deals } · krok { $step } z { $steps }
replay-not-kept = Rozdanie { $deal } zagrano, zanim bot zaczął przechowywać powtórki: widać tylko jego wynik.
replay-deal-points = Duże punkty za rozdanie — { $a }: { $pa } · { $b }: { $pb }
replay-hand = ✋ { $name }: { $tiles }
replay-link = 🎞 <a href="{ $url }">Powtórka meczu</a>
history-replay = <a href="{ $url }">🎞 powtórka</a>
btn-replay-first = ⏮
btn-replay-prev = ◀
btn-replay-next = ▶
btn-replay-last = ⏭
