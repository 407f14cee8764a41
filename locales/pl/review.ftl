# The post-mortem (🔎) each person gets in private after a match, and the 💡 hints of a match against the computer.
# A share of the chance to win ($cost, $gap) comes as a number and is written with the language's decimal comma.
review-head = 🔎 <b>Analiza meczu</b>: dokładność { $accuracy }% (decyzji: { $decisions })
review-clean = Ani jednego wyraźnego błędu: komputer na poziomie trudnym zagrałby tak samo.
review-line = { $number }. { $where }. Ty: { $played } · komputer (trudny): { $best } · koszt: { NUMBER($cost, minimumFractionDigits: 1, maximumFractionDigits: 1) }% szansy na wygraną.
review-where-trick = Rozdanie { $deal }, lewa { $trick }
review-where-deal = Rozdanie { $deal }, licytacja i wybór atu
review-foot = <i>Dokładność to odsetek decyzji, które kosztowały najwyżej 1% szansy na wygraną.</i>
review-no-choices = 🔎 Analiza meczu: nie było żadnego wyboru — nie ma czego analizować.
review-failed = 🔎 Nie udało się przygotować analizy meczu.
# A move in words.
move-claim = { $tile } z deklaracją dubletów
move-close = 🚧 zamknąć talon
move-take-indicator = wziąć odkryty atut
move-take-hidden = wziąć zakryty
move-bid = odzywka { $n }
move-pass = pas
move-trumps = atu: { $suit }
# The accuracy under the match result and on the card.
accuracy-of = { $name } { $accuracy }%
accuracy-line = 🎯 Dokładność: { $list }
card-accuracy = dokładność { $accuracy }%
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
# The 💡 button of a match against the computer, and its toast: the move, then why (a phrase after a dash).
btn-hint = 💡 Podpowiedź
hint-toast = 💡 { $move } — { $why }. Szansa na wygraną { $chance }%, najlepsza alternatywa jest gorsza o { NUMBER($gap, minimumFractionDigits: 1, maximumFractionDigits: 1) }%.
hint-toast-only = 💡 { $move } — { $why }. Szansa na wygraną { $chance }%.
hint-why-lead = najlepsze wyjście
hint-why-reply = najlepsza odpowiedź na wyjście
hint-why-claim = punkty za zadeklarowane dublety
hint-why-close = punktów w ręku wystarczy na cel
hint-why-take-indicator = odkryty atut lepszy od zakrytego
hint-why-take-hidden = zakryty lepszy od odkrytego atutu
hint-why-bid = z tą ręką ugrasz { $n }
hint-why-pass = ręka za słaba na odzywkę
hint-why-trumps = najwięcej punktów z tymi atutami
hint-not-now = Podpowiedź działa tylko, gdy masz ruch — na najnowszym panelu.
hint-not-here = Podpowiedzi są tylko w grze z komputerem.
hint-why-wins-trick = bierze lewę
hint-why-gives-trick = oddaje lewę jak najtaniej
hint-why-claim-value = to { $value }
hint-why-close-goal = punktów w ręku wystarczy na { $goal }
