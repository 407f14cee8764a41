# Provably fair deals (docs/fairness.md): the match key's commitment, each deal's full commitment, the players' seeds.
cmd-seed = Moje ziarno do uczciwych rozkładów
panel-commitment = 🔒 Odcisk rozkładu: <code>{ $hash }</code>
fair-key-commitment = 🔐 Odcisk klucza meczu: <code>{ $hash }</code> (sam klucz — po meczu)
fair-key = 🗝 Klucz meczu: <code>{ $hex }</code> — z nim i ziarnami 🌱 sprawdzisz 🔐, 🔒 i rozkłady.
fair-seeds = 🌱 Ziarna: { $a }; { $b }
fair-seed = { $name } — <code>{ $seed }</code>
fair-seed-computer = { $name } — bez ziarna
seed-current = 🌱 Twoje ziarno: <code>{ $seed }</code>
    Miesza się z kluczem każdego twojego meczu. Gdy wyzwanie pokaże już 🔐, ustaw nowe — wtedy nawet bot nie dopasuje do niego rozkładów. Zmiana: /seed i dowolne słowa (do { $limit } znaków).
seed-set = 🌱 Nowe ziarno: <code>{ $seed }</code>
    Będzie użyte w każdym meczu, który zacznie się od teraz.
seed-too-long = Za długie ziarno: { $length ->
        [one] { $length } znak
        [few] { $length } znaki
       *[many] { $length } znaków
    }, a można najwyżej { $limit }. Ziarno zostało bez zmian.
seed-private-only = 🌱 Ziarno ustawia się na prywatnym czacie z botem: napisz tam /seed.
