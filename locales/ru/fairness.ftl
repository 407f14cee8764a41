# Provably fair deals (docs/fairness.md): the match key's commitment, each deal's full commitment, the players' seeds.
cmd-seed = Моё зерно для честных раскладов
panel-commitment = 🔒 Отпечаток расклада: <code>{ $hash }</code>
fair-key-commitment = 🔐 Отпечаток ключа матча: <code>{ $hash }</code> (сам ключ — в конце матча)
fair-key = 🗝 Ключ матча: <code>{ $hex }</code> — с ним и зёрнами 🌱 можно проверить 🔐, 🔒 и расклады.
fair-seeds = 🌱 Зёрна: { $a }; { $b }
fair-seed = { $name } — <code>{ $seed }</code>
fair-seed-computer = { $name } — без зерна
seed-current = 🌱 Твоё зерно: <code>{ $seed }</code>
    Оно смешивается с ключом каждого твоего матча. Задай новое, когда вызов уже показал 🔐, — тогда даже бот не сможет подогнать расклады под твоё зерно. Сменить: /seed и любые слова (до { $limit } знаков).
seed-set = 🌱 Новое зерно: <code>{ $seed }</code>
    Оно войдёт в каждый матч, который начнётся с этого момента.
seed-too-long = Слишком длинное зерно: { $length ->
        [one] { $length } знак
        [few] { $length } знака
       *[many] { $length } знаков
    }, а можно не больше { $limit }. Зерно осталось прежним.
seed-private-only = 🌱 Зерно задаётся в личке с ботом: напиши там /seed.
