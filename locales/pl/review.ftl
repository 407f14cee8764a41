# The post-mortem (🔎) each person gets in private after a match, and the 💡 hints of a match against the computer.
review-head = 🔎 <b>Analiza meczu</b>: celność { $accuracy }% ({ $decisions } { $decisions ->
    [one] decyzja z wyborem
    [few] decyzje z wyborem
   *[many] decyzji z wyborem
})
review-clean = Ani jednej kosztownej decyzji: mocny komputer zagrałby tak samo.
review-line = { $number }. { $where }: zagrano { $played }, mocny poziom wolałby { $best }; kosztowało to { $cost }% szansy na wygraną.
review-where-trick = Rozdanie { $deal }, lewa { $trick }
review-where-deal = Rozdanie { $deal }, licytacja
review-foot = <i>Celność to odsetek decyzji, które kosztowały najwyżej 1% szansy na wygraną.</i>
review-no-choices = 🔎 Analiza meczu: ani jednej decyzji z wyborem — nie ma czego analizować.
review-failed = 🔎 Analizy meczu nie udało się zrobić.
# A move in words.
move-claim = { $tile } z meldunkiem dubli
move-close = 🔒 zamknąć rezerwę
move-take-indicator = wziąć atutową
move-take-hidden = wziąć zakrytą
move-bid = licytacja { $n }
move-pass = pas
move-trumps = atuty: { $suit }
# The accuracy under the match result and on the card.
accuracy-of = { $name } { $accuracy }%
accuracy-line = 🎯 Celność: { $list }
card-accuracy = celność { $accuracy }%
hints-of = { $name }: 💡 { $n } { $n ->
    [one] podpowiedź
    [few] podpowiedzi
   *[many] podpowiedzi
}
card-hints = 💡 { $n } { $n ->
    [one] podpowiedź
    [few] podpowiedzi
   *[many] podpowiedzi
}
# The 💡 button of a match against the computer, and its toast.
btn-hint = 💡 Podpowiedź
hint-toast = 💡 { $move } — { $why }. Szansa na wygraną { $chance }%, następny ruch gorszy o { $gap }%.
hint-toast-only = 💡 { $move } — { $why }. Szansa na wygraną { $chance }%.
hint-why-lead = najlepsze wyjście
hint-why-reply = najlepsza odpowiedź na wyjście
hint-why-claim = zameldować duble dla punktów
hint-why-close = zamknąć: punktów w ręce starczy do celu
hint-why-take-indicator = wziąć atutową
hint-why-take-hidden = zakryta lepsza od atutowej
hint-why-bid = ręka robi { $n }
hint-why-pass = ręka nie starczy na licytację
hint-why-trumps = najwięcej punktów z tymi atutami
hint-not-now = Podpowiedź tylko w twoim ruchu, na ostatnim panelu.
hint-not-here = Podpowiedzi są tylko w grze z komputerem.
hint-why-wins-trick = bierze lewę
hint-why-gives-trick = oddaje lewę jak najtaniej
hint-why-claim-value = zameldować duble: { $value }
hint-why-close-goal = zamknąć: punktów w ręce starczy do { $goal }
