## A Telegram name cannot be declined: a player's name only ever stands in the
## nominative (as the subject, after a colon or a dash, in parentheses), never
## after a preposition. The register is informal («ty»): friends play in a group.

## Words with numbers

points = { $n } { $n ->
    [one] punkt
    [few] punkty
   *[many] punktów
}
game-points = { $n } { $n ->
    [one] duży punkt
    [few] duże punkty
   *[many] dużych punktów
}
doubles = { $n } { $n ->
    [one] dublet
    [few] dublety
   *[many] dubletów
}
tiles = { $n } { $n ->
    [one] kamień
    [few] kamienie
   *[many] kamieni
}

## Games and suits

preset-bingo = Bingo
preset-bingo-classic = Bingo z przymusem przebicia
preset-bingo-domino = Bingo z przymusem bicia atutem
preset-42 = 42 we dwoje
# Words /play and /rules accept for each game (the first is shown in hints); the other language's work too.
words-bingo = bingo, zwykłe
words-bingo-classic = klasyczne, klasyka, przebicie
words-bingo-domino = atu, domino
words-42 = 42
suit = { $suit ->
    [0] mydła
    [1] jedynki
    [2] dwójki
    [3] trójki
    [4] czwórki
    [5] piątki
   *[6] szóstki
}
suit-short = { $suit ->
    [0] mydła (0)
    [1] jedynki (1)
    [2] dwójki (2)
    [3] trójki (3)
    [4] czwórki (4)
    [5] piątki (5)
   *[6] szóstki (6)
}
# The names the sources give to declaring n doubles, by preset (nothing where a count has none).
claim-name = { $preset ->
    [bingo-classic] { $n ->
        [2] „duplet”
        [3] „tercet”
        [4] „podwójny duplet”
        [5] „król”
        [6] „cesarz”
       *[7] „niezwyciężony”
    }
    [bingo-domino] { $n ->
        [4] „król”
        [6] „cesarz”
        [7] „niezwyciężony”
       *[other] {""}
    }
   *[bingo] { $n ->
        [5] „król”
        [6] „cesarz”
        [7] „niezwyciężony”
       *[other] {""}
    }
}

## Challenges

challenge-anyone = 🎲 <b>{ $creator }</b> szuka rywala: { $game }, do { game-points-target }.
challenge-invite = 🎲 <b>{ $creator }</b> rzuca wyzwanie. Rywal: <b>{ $opponent }</b>. { $game }, do { game-points-target }.
game-points-target = { $target } { $target ->
    [one] dużego punktu
   *[other] dużych punktów
}
challenge-expires = Wyzwanie jest ważne przez { duration-acc }.
challenge-withdrawn = ✖ Wyzwanie wycofane. Autor wyzwania: { $creator }.
challenge-cancelled = ✖ Wyzwanie usunięte przez administratora. Autor wyzwania: { $creator }.
challenge-expired = ⌛ Wyzwanie wygasło — nikt go nie przyjął. Autor wyzwania: { $creator }.
challenge-accepted = 🎲 Mecz się zaczął: <b>{ $a }</b> i <b>{ $b }</b> — { $game }, do { game-points-target }. Każdy ma już swoje kamienie na prywatnym czacie z botem.
challenge-accepted-computer = 🎲 Mecz się zaczął: <b>{ $a }</b> — { $b }. { $game }, do { game-points-target }. Kamienie są na prywatnym czacie z botem, a komputer gra sam.
btn-join = 🤝 Przyjmij wyzwanie
btn-withdraw = ✖ Wycofaj
btn-open-bot = 🤖 Otwórz bota

## Table (group)

table-title = <b>{ $game }</b> · rozdanie { $deal }
table-commitment = 🔒 Odcisk rozkładu: <code>{ $hash }</code> (klucz po rozdaniu)
table-score = Wynik meczu: { $a } — <b>{ $sa }</b>, { $b } — <b>{ $sb }</b> · do { $target }
table-trump = Atu: { suit } { $tile }
table-trump-hidden = Atu: { suit }
table-reserve = W talonie: { tiles }
table-reserve-empty = Talon pusty — teraz trzeba dokładać do koloru.
table-closed = 🚧 Talon zamknięty — { $name } musi zdobyć 70.{ $playing ->
    [yes] {" "}Teraz trzeba dokładać do koloru.
   *[no] {""}
}
table-lead = Na stole: { $name } { $tile }
table-last = Poprzednia lewa: { $leader } { $lead } · { $other } { $reply } → { $winner }
table-tricks = Lewy — { $a }: { $ta } · { $b }: { $tb }
table-claim = 📣 { $name } deklaruje { doubles }{ $title }: { $tiles } — { $state ->
    [open] czekamy na wynik lewy
    [won] zaliczone
   *[lost] niezaliczone: lewę wziął rywal
}
table-turn = ▶️ Ruch: <b>{ $name }</b>
table-choosing = ▶️ <b>{ $name }</b> wybiera: odkryty { $tile } albo zakryty kamień
table-stock = W talonie: { tiles }
table-phase = { $phase ->
    [draw] Dobieranie: bez atu, bez obowiązku dokładania do koloru
    [bidding] Licytacja
    [trumps] Wybór atu
   *[play] Rozgrywka
}
table-bids = Odzywki: { $list }
bid-pass = pas
table-contract = Kontrakt: { $name } — { $bid }, atu: { $trump }
table-contract-pending = Kontrakt: { $name } — { $bid }
table-points = Punkty — { $a }: { $pa } · { $b }: { $pb }
table-draw-tricks = Lewy w dobieraniu — { $a }: { $ta } · { $b }: { $tb }

## Panel (private)

panel-title = <b>{ $game }</b> · rozdanie { $deal } · rywal: { $opponent }
panel-score = Wynik meczu: ty <b>{ $me }</b>, rywal <b>{ $them }</b> · do { $target }
panel-points = Twoje punkty: <b>{ $points }</b>/{ $goal } · lewy: ty { $mine }, rywal { $theirs }
panel-points-42 = Punkty: ty <b>{ $mine }</b>, rywal <b>{ $theirs }</b> · lewy: ty { $tm }, rywal { $tt }
panel-opponent-claims = Rywal pokazał: { $tiles }
panel-lead = Twoje wyjście.
panel-reply = Twoja odpowiedź na { $tile }.
panel-wait = ⏳ Ruch rywala: { $name }.
panel-wait-reply = ⏳ { $name } odpowiada na twój { $tile }.
panel-choose = Weź odkryty { $tile } albo zakryty kamień.
panel-bid-first = Twoja odzywka (od { $min }) albo pas.
panel-bid = Twoja odzywka (powyżej { $bid }) albo pas.
panel-trumps = Wybierz atu.
panel-hand = Twoje kamienie: { $tiles }
panel-hint = 🚫 — tych kamieni nie możesz teraz zagrać (naciśnij, a powiem dlaczego).
panel-over = Rozdanie zakończone.
panel-match-over = Mecz zakończony.
btn-claim = 📣 { $tile }: { doubles }, { $value }
# The worth of a claim, short: the button has room for 32 characters only.
claim-value = { $gp ->
    [0] +{ $n } pkt
   *[other] +{ $n } { $n ->
        [one] duży pkt
        [few] duże pkt
       *[many] dużych pkt
    }
}
btn-close = 🚧 Zamknij talon
btn-take-indicator = Weź { $tile }
btn-take-hidden = Weź zakryty
btn-pass = Pas
btn-trump = { suit-short }

## Refusals and toasts

refusal-game_over = Rozdanie już się skończyło.
refusal-not_your_turn = To nie twój ruch.
refusal-wrong_phase = Teraz nie można tak zagrać.
refusal-not_in_hand = Nie masz tego kamienia.
refusal-must_follow_suit = Dokładamy do koloru: na { $tile } potrzebne są nieatutowe { suit } — masz je.
refusal-must_beat = Dokładamy do koloru i przebijamy: na { $tile } potrzebny jest nieatutowy kamień tego koloru, który go przebije — masz taki.
refusal-must_follow_lower_half = Dokładamy do koloru: na { $tile } trzeba dołożyć nieatutowe { suit }, ale ich nie masz — więc potrzebny jest nieatutowy kamień z { $low } (niższa połówka { $tile }), a taki masz.
refusal-must_trump = Na { $tile } musisz odpowiedzieć atutem ({ suit }) — masz go.
refusal-no_claim = Takiej deklaracji nie można zgłosić.
refusal-cannot_close = Teraz nie można zamknąć talonu.
refusal-bid_too_low = Odzywka musi być wyższa od poprzedniej.
toast-stale = Ten przycisk jest nieaktualny — spójrz na nowszą wiadomość.
toast-panel-resent = Panel był nieaktualny — świeży jest już na dole czatu z botem.
toast-old-panel = To stary panel — używaj najnowszego.
toast-not-your-question = To pytanie nie jest do ciebie.
toast-not-player = Nie grasz w tym meczu.
toast-match-over = Mecz już się skończył.
toast-no-match = Nie znaleziono meczu.
toast-busy = Chwileczkę, ruch jest jeszcze przetwarzany — naciśnij ponownie.
toast-bad-button = Ten przycisk nie działa.
toast-own-challenge = To twoje wyzwanie — czekamy na rywala.
toast-not-invited = To wyzwanie nie jest skierowane do ciebie.
toast-challenge-gone = Wyzwanie jest już nieaktualne.
toast-already-playing = Masz już mecz na tym czacie.
toast-challenge-open = Masz już otwarte wyzwanie na tym czacie.
toast-only-creator = Wycofać wyzwanie może tylko jego autor lub administrator grupy, w której je otwarto.
toast-start-bot = Najpierw otwórz prywatny czat z botem — tam dostaniesz swoje kamienie.
toast-admin-only = To mogą zrobić tylko administratorzy grupy.
toast-storage = Nie udało się zapisać ruchu — spróbuj za minutę.
toast-error = Coś poszło nie tak — spróbuj jeszcze raz.
toast-done = Gotowe.

## Errors of commands

error-group-only = To polecenie działa tylko na czacie grupowym.
error-private-only = To polecenie działa tylko na prywatnym czacie z botem.
error-unknown-game = Nie znam gry „{ $name }”. Dostępne: { $list }.
error-bad-username = „{ $name }” to nie jest nazwa użytkownika Telegrama: po @ musi być od 5 do 32 znaków — liter łacińskich, cyfr lub „_”.
error-no-match = Nie masz aktywnego meczu.
error-no-challenge = Nie masz otwartego wyzwania na tym czacie.
error-internal = Coś poszło nie tak — spróbuj jeszcze raz.
error-storage = Nie udało się zapisać danych — spróbuj za minutę.
error-admin-only = To mogą zrobić tylko administratorzy grupy.
error-not-a-person = Grać mogą tylko ludzie z własnym kontem: w imieniu kanału ani jako anonimowy administrator nie można rzucić wyzwania.
error-opponent-not-a-person = Wyzwać można tylko człowieka: kanał, anonimowy administrator ani bot nie mogą grać.
error-self-challenge = Nie możesz wyzwać samego siebie.
player-blocked = ⚠️ { $name }: bot jest zablokowany na prywatnym czacie, więc kamienie tam nie docierają. Mecz czeka — odblokuj bota i wyślij mu /hand.
need-start = { $name }, otwórz prywatny czat z botem, żeby dostać swoje kamienie.

## Results

deal-result = <b>Rozdanie { $deal }</b>: { $a } — { $pa }, { $b } — { $pb }.
deal-no-points = Nikt nie zdobył 70 — bez dużych punktów.
deal-all-passed = Dwa pasy — rozdanie od nowa. Znowu zaczyna: { $name }.
deal-score = Wynik meczu: { $a } — <b>{ $sa }</b>, { $b } — <b>{ $sb }</b>.
deal-secret = 🔑 Klucz rozkładu: <code>{ $secret }</code> — pozwala sprawdzić odcisk 🔒 i rozkład
reason-reached_goal = { $name } +{ $gp }: zdobyto 70 punktów, rywal ma { $threshold } { $threshold ->
    [one] punkt
    [few] punkty
   *[many] punktów
} lub więcej.
reason-schneider = { $name } +{ $gp }: zdobyto 70 punktów, rywal ma mniej niż { $threshold } { $threshold ->
    [one] punkt
    [few] punkty
   *[many] punktów
}.
reason-no_trick = { $name } +{ $gp }: zdobyto 70 punktów, rywal bez żadnej lewy.
reason-closer_failed = { $name } +{ $gp }: rywal zamknął talon i nie zdobył 70.
reason-closer_failed_penalty = { $name } +{ $gp }: { $penalty ->
    [first] rywal zamknął talon przed pierwszą lewą i nie zdobył 70.
   *[notrick] rywal zamknął talon, nie wziął żadnej lewy i nie zdobył 70.
}
reason-reached_goal_after_close = { $name } +{ $gp }: zdobyto 70 punktów po zamknięciu talonu przez rywala.
reason-claim = { $name } +{ $gp }: zadeklarowano { $claim }.
reason-bingo_takes_trump_double = { $name } +{ $gp }: bingo wzięło dublet atutowy!
reason-bid_made = { $name } +{ $gp }: kontrakt { $bid } ugrany ({ $pts }).
reason-bid_set = { $name } +{ $gp }: rywal nie ugrał kontraktu { $bid } ({ $pts }).
match-won = 🏆 <b>{ $name }</b> wygrywa mecz <b>{ $sw }:{ $sl }</b>!
match-surrender = 🏳 { $loser } poddaje się. Wygrywa <b>{ $winner }</b> ({ $sw }:{ $sl }).
rating-change = Ranking: { $winner } { $rw } (+{ $d }), { $loser } { $rl } (−{ $d }).

## Surrender

surrender-confirm = Poddajesz się? Rywal: { $opponent }. Mecz zostanie uznany za przegrany.
btn-surrender = 🏳 Tak, poddaję się
btn-keep-playing = Gramy dalej
surrender-kept = Gramy dalej.

## Language

lang-choose = Выбери язык · Wybierz język
lang-set = Język: polski.
btn-lang-ru = 🇷🇺 Русский
btn-lang-pl = 🇵🇱 Polski

## Start and commands

start-welcome = Cześć! Prowadzę mecze w domino „Bingo” i „42” bezpośrednio na czacie grupowym. Dodaj mnie do grupy i napisz tam /play — swoje kamienie dostaniesz tutaj, na prywatnym czacie.
help-text = <b>Domino: Bingo i 42</b>
    Mecz we dwoje bezpośrednio na czacie grupowym: swoje kamienie każdy widzi na prywatnym czacie z botem, a grupa — stół, lewy i wynik.
    1. Dodaj bota do grupy.
    2. Na czacie grupowym: /play — wyzwanie dla wszystkich, /play 42 albo /play klasyczne — inna gra, /play w odpowiedzi na czyjąś wiadomość — wyzwanie tylko dla jej autora.
    3. Rywal naciska „Przyjmij wyzwanie” i każdy dostaje swoje kamienie.
    🤝 Bez grupy: na dowolnym czacie ze znajomym wpisz @ i nazwę bota, wybierz grę — wyzwanie pojawi się na czacie, znajomy naciska „Przyjmij wyzwanie”, a ta wiadomość stanie się stołem. Sezony, tabela grupy i turnieje są tylko w grupach; takie mecze mają własny ranking (/top na prywatnym czacie).
    Nie masz z kim grać? /play bot na czacie grupowym albo /play tutaj, na prywatnym czacie — mecz z komputerem; poziom: /play bot łatwy, średni albo trudny. W meczu z komputerem przycisk 💡 podpowiada ruch.
    🎴 Przycisk „Stół” pod twoim panelem i pod stołem na czacie grupowym otwiera stół i twoje kamienie na jednym ekranie: ruch robisz jednym naciśnięciem.
    Po meczu 🔁 pod wynikiem to rewanż: gdy naciśniecie oboje, nowy mecz zaczyna się od razu. Na prywatny czat przychodzi 🔎 analiza meczu: twoje najdroższe błędy i dokładność. /replay — powtórki twoich meczów ruch po ruchu, z odkrytymi kamieniami.
    🔒 Rozkłady są uczciwe: /seed &lt;słowa&gt; na prywatnym czacie z botem ustawia twoje ziarno rozkładów (bot je pokaże; zmienisz je w każdej chwili; jeśli go nie ustawisz, ziarno jest losowe).
    🏆 /tournament — turniej dla 3–16 graczy: zapisy przyciskiem ✅, start ▶, tabela aktualizuje się sama; dla organizatora i adminów: /tournament stop — zatrzymaj, /tournament kick — usuń gracza.
    /top — sezon tego miesiąca na czacie (/top wszystko — cały ranking czatu, /top wszyscy — ze wszystkich czatów), /stats w odpowiedzi na wiadomość gracza — twój bilans spotkań z nim, /hand — pokaż kamienie jeszcze raz, /surrender — poddaj się, /cancel — usuń wyzwanie, /rules — zasady, /lang — język.
btn-add-to-group = ➕ Dodaj do grupy
cmd-play = Wyzwij na mecz (Bingo albo 42)
cmd-cancel = Usuń otwarte wyzwanie
cmd-surrender = Poddaj bieżący mecz
cmd-lang = Język bota
cmd-hand = Pokaż moje kamienie jeszcze raz
cmd-start = Start
cmd-help = Co potrafi bot

## Turn clock

# A span of time ($unit: s, m, h or d; $n of them) in the nominative ("1 minuta"): after a colon or a dash only.
duration = { $unit ->
    [s] { $n } { $n ->
        [one] sekunda
        [few] sekundy
       *[many] sekund
    }
    [m] { $n } { $n ->
        [one] minuta
        [few] minuty
       *[many] minut
    }
    [h] { $n } { $n ->
        [one] godzina
        [few] godziny
       *[many] godzin
    }
   *[d] { $n } { $n ->
        [one] dzień
       *[other] dni
    }
}
# The same span in the accusative ("1 minutę"): after a preposition («za», «przez», «na»).
duration-acc = { $unit ->
    [s] { $n } { $n ->
        [one] sekundę
        [few] sekundy
       *[many] sekund
    }
    [m] { $n } { $n ->
        [one] minutę
        [few] minuty
       *[many] minut
    }
    [h] { $n } { $n ->
        [one] godzinę
        [few] godziny
       *[many] godzin
    }
   *[d] { $n } { $n ->
        [one] dzień
       *[other] dni
    }
}
clock-off = bez limitu
panel-clock = ⏰ Czas na ruch: { $left } — nie zdążysz, przegrywasz mecz.
reminder-private = ⏰ Twój ruch! Zostało czasu: { $left }. Nie zdążysz — przegrywasz mecz.
reminder-group = ⏰ <a href="tg://user?id={ $id }">{ $name }</a>, twój ruch — zostało czasu: { $left }.
claim-offer = ⌛ Rywal milczy. Bez ruchu: { $idle }. Możesz wygrać walkowerem — rywal przegra mecz.
toast-opponent-moved = Rywal już zagrał — gramy dalej.
toast-claim-not-yours = Walkower może ogłosić tylko ten, kto czeka na ruch rywala.
btn-claim-win = 🏆 Wygraj walkowerem
toast-too-early = Za wcześnie: rywal ma jeszcze czas na ruch.
match-forfeit = ⏰ Ruch nie został wykonany na czas — { $loser } przegrywa mecz. Wygrywa <b>{ $winner }</b> ({ $sw }:{ $sl }).
match-abandoned = 💤 Mecz zatrzymany: zbyt długo nie było ruchów. Stan meczu: { $a } — <b>{ $sa }</b>, { $b } — <b>{ $sb }</b>. Mecz nierozstrzygnięty, ranking bez zmian; można zacząć nowy: /play

## The computer (a seat the bot plays)

computer-easy = 🤖 Komputer (łatwy)
computer-normal = 🤖 Komputer (średni)
computer-hard = 🤖 Komputer (trudny)
level-easy = łatwy
level-normal = średni
level-hard = trudny
btn-computer-easy = 🤖 Łatwy
btn-computer-normal = 🤖 Średni
btn-computer-hard = 🤖 Trudny
challenge-computer-hint = Nie chcesz czekać? Autor wyzwania może zagrać z komputerem — przyciski 🤖 poniżej.
# Words /play takes for the computer and its levels (comma-separated, any case).
words-computer = bot, komputer
words-level-easy = łatwy, latwy
words-level-normal = średni, sredni, normalny
words-level-hard = trudny
toast-computer-creator-only = Zagrać z komputerem zamiast tego wyzwania może tylko autor wyzwania.
cmd-play-computer = Mecz z komputerem (Bingo albo 42)

## A member's flood of commands in a group (the first one left unanswered)

flood-notice = { $name }, za dużo poleceń pod rząd — znów odpowiem za minutę.

## The greeting when the bot is added to a group (once a day at most)

greeting = 👋 Cześć! Prowadzę tu dwuosobowe mecze w domino: „Bingo” i „42”. Każdy dostaje swoje kamienie na prywatnym czacie, a grupa widzi stół i wynik.
    Na start: /play — wyzwanie dla wszystkich, /play bot — mecz z komputerem. Zasady: /rules, pomoc: /help.
    Administratorzy mogą wybrać język grupy przyciskami poniżej.
