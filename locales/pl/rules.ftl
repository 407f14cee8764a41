## Rules of each preset, for /rules (no variables: the text is the same for every group)

rules-bingo =
    <b>Bingo</b> — domino na lewy dla dwóch graczy: 28 kamieni od [0|0] do [6|6]. Mecz do 8 dużych punktów (grupa może wybrać 7).

    <b>Mydło i atu.</b> Mydło (pusta połówka, 0) wszędzie liczy się jako 7, wyżej niż szóstka: w sumie oczek, przy porównywaniu kamieni i przy wyborze atu. Każdy dostaje 7 kamieni, 14 idzie do talonu. Jeden kamień z talonu zostaje odkryty: jego wyższa połówka wyznacza atu (dla [5|0] są to mydła). Dobiera się go z talonu jako ostatni. Atutem jest każdy kamień z liczbą atutową; [0|0] („bingo”) jest atutem zawsze.

    <b>Lewa.</b> Pierwsze wyjście w meczu losuje się, potem rozdania zaczyna się na przemian. Wychodzący kładzie dowolny kamień, przeciwnik odpowiada. Lewę bierze: bingo — zawsze; inaczej dublet atutowy; inaczej atut przeciw kamieniowi bez atu; inaczej kamień o większej sumie oczek (mydło = 7); przy równości — wychodzący. Kto wziął lewę, zabiera oba kamienie i wychodzi do następnej.

    <b>Dobieranie.</b> Dopóki talon jest otwarty, po każdej lewie pierwszy dobiera kamień ten, kto ją wziął, potem przeciwnik. Ostatnia para: biorący lewę dostaje zakryty kamień, przeciwnik — odkryty kamień atutowy. Dopóki w talonie są kamienie i nie jest zamknięty, nie ma obowiązku dokładania do koloru ani bicia atutem.

    <b>Punkty</b> (tylko za zdobyte kamienie, sama lewa — 0):
    • dublet atutowy — 28 (także [0|0], gdy atu to mydła);
    • [0|0] przy innym atu — 14;
    • [6|4] i [3|0] — po 10, nawet gdy są atutami;
    • pozostałe dublety — suma oczek ([5|5] = 10);
    • pozostałe atuty — suma oczek (gdy atu to piątki, [5|0] = 12);
    • reszta kamieni — 0.

    <b>Deklaracja dubletów.</b> Wychodząc dubletem, gdy masz 2 dublety lub więcej (razem z tym, którym wychodzisz), możesz zadeklarować i pokazać je wszystkie: 2 — 20 punktów, 3 — 40, 4 — 50, 5 — 60, 6 — 1 duży punkt, 7 — 3 duże punkty. Deklaracja liczy się tylko wtedy, gdy weźmiesz tę lewę. Pozostałe dublety można zadeklarować ponownie przy następnym wyjściu dubletem.

    <b>Zamknięcie.</b> Przed swoim wyjściem, dopóki w talonie są kamienie, możesz zamknąć talon (odwrócić kamień atutowy). Nikt już nie dobiera, obowiązuje dokładanie do koloru, a zamykający zobowiązuje się zdobyć 70.

    <b>Dokładanie do koloru</b> — gdy talon się wyczerpał lub jest zamknięty. Kolor wyjścia to wyższa połówka kamienia wyjścia (mydło = 7: [6|0] to wyjście w mydła).
    • Na atut — atut, jeśli masz; inaczej dowolny kamień.
    • Na kamień bez atu — kamień bez atu w tym samym kolorze; jeśli go nie masz — kamień bez atu z niższą połówką kamienia wyjścia; jeśli i tego brak — dowolny kamień (może być atut).

    <b>Koniec rozdania.</b> Rozdanie kończy się od razu, gdy ktoś zdobędzie 70 punktów (wzięte kamienie i zaliczone deklaracje), albo gdy skończą się kamienie. Kto zdobył 70, dostaje 3 duże punkty, jeśli przeciwnik nie wziął żadnej lewy; 2, jeśli przeciwnik ma mniej niż 20 punktów; inaczej 1.
    Jeśli zamykający talon nie zdobył 70 jako pierwszy, przeciwnik dostaje 2 duże punkty (3, jeśli talon zamknięto przed pierwszą lewą) i jeszcze 1, jeśli sam zdobył 70. Talonu nie zamknięto, a nikt nie zdobył 70 — bez dużych punktów.
    Bingo, które weźmie dublet atutowy (atu to nie mydła), od razu daje 1 duży punkt. Mecz kończy się, gdy ktoś zdobędzie wymaganą liczbę dużych punktów.

rules-bingo-classic =
    <b>Bingo (klasyczne)</b> — domino na lewy dla dwóch graczy: 28 kamieni od [0|0] do [6|6]. Mecz do 7 dużych punktów (grupa może wybrać 8).

    <b>Mydło i atu.</b> Mydło (pusta połówka, 0) wszędzie liczy się jako 7, wyżej niż szóstka: w sumie oczek, przy porównywaniu kamieni i przy wyborze atu. Każdy dostaje 7 kamieni, 14 idzie do talonu. Jeden kamień z talonu zostaje odkryty: jego wyższa połówka wyznacza atu (dla [5|0] są to mydła). Dobiera się go z talonu jako ostatni. Atutem jest każdy kamień z liczbą atutową; [0|0] („bingo”) jest atutem zawsze.

    <b>Lewa.</b> Pierwsze wyjście w meczu losuje się, potem rozdania zaczyna się na przemian. Wychodzący kładzie dowolny kamień, przeciwnik odpowiada. Lewę bierze: bingo — zawsze; inaczej dublet atutowy; inaczej atut przeciw kamieniowi bez atu; inaczej kamień o większej sumie oczek (mydło = 7); przy równości — wychodzący. Kto wziął lewę, zabiera oba kamienie i wychodzi do następnej.

    <b>Dobieranie.</b> Dopóki talon jest otwarty, po każdej lewie pierwszy dobiera kamień ten, kto ją wziął, potem przeciwnik. Ostatnia para: biorący lewę sam wybiera odkryty kamień atutowy albo zakryty, przeciwnik dostaje drugi. Dopóki w talonie są kamienie i nie jest zamknięty, nie ma obowiązku dokładania do koloru ani bicia atutem.

    <b>Punkty</b> (tylko za zdobyte kamienie, sama lewa — 0):
    • dublet atutowy — 28 (także [0|0], gdy atu to mydła);
    • [0|0] przy innym atu — 14;
    • [6|4] i [3|0] — po 10, nawet gdy są atutami;
    • pozostałe dublety — suma oczek ([5|5] = 10);
    • pozostałe atuty — suma oczek (gdy atu to piątki, [5|0] = 12);
    • reszta kamieni — 0.

    <b>Deklaracja dubletów.</b> Wychodząc dubletem, gdy masz 2 dublety lub więcej (razem z tym, którym wychodzisz), możesz zadeklarować i pokazać je wszystkie: 2 — 20 punktów, 3 — 40, 4 — 50, 5 — 60, 6 — 70, 7 — 210; jeśli jest wśród nich bingo — jeszcze 10. Deklaracja liczy się tylko wtedy, gdy weźmiesz tę lewę. Pozostałe dublety można zadeklarować ponownie przy następnym wyjściu dubletem.

    <b>Zamknięcie.</b> Przed swoim wyjściem, dopóki w talonie są kamienie, możesz zamknąć talon (odwrócić kamień atutowy). Nikt już nie dobiera, obowiązuje dokładanie do koloru, a zamykający zobowiązuje się zdobyć 70.

    <b>Dokładanie do koloru</b> — gdy talon się wyczerpał lub jest zamknięty. Kolor wyjścia to wyższa połówka kamienia wyjścia (mydło = 7: [6|0] to wyjście w mydła).
    • Na atut — atut, jeśli masz; inaczej dowolny kamień.
    • Na kamień bez atu — kamień bez atu w tym samym kolorze, a jeśli możesz nim przebić, musisz przebić; jeśli nie masz tego koloru — dowolny kamień (bicie atutem nie jest obowiązkowe).

    <b>Koniec rozdania.</b> Rozdanie kończy się od razu, gdy ktoś zdobędzie 70 punktów (wzięte kamienie i zaliczone deklaracje), albo gdy skończą się kamienie. Kto zdobył 70, dostaje 3 duże punkty, jeśli przeciwnik nie wziął żadnej lewy; 2, jeśli przeciwnik ma mniej niż 30 punktów; inaczej 1.
    Jeśli zamykający talon nie zdobył 70 jako pierwszy, przeciwnik dostaje 2 duże punkty (3, jeśli talon zamknięto przed pierwszą lewą) i jeszcze 1, jeśli sam zdobył 70. Talonu nie zamknięto, a nikt nie zdobył 70 — bez dużych punktów.
    Bingo, które weźmie dublet atutowy (atu to nie mydła), od razu daje 1 duży punkt. Mecz kończy się, gdy ktoś zdobędzie wymaganą liczbę dużych punktów.

rules-bingo-domino =
    <b>Bingo (domino)</b> — domino na lewy dla dwóch graczy: 28 kamieni od [0|0] do [6|6]. Mecz do 7 dużych punktów (grupa może wybrać 8).

    <b>Mydło i atu.</b> Mydło (pusta połówka, 0) wszędzie liczy się jako 7, wyżej niż szóstka: w sumie oczek, przy porównywaniu kamieni i przy wyborze atu. Każdy dostaje 7 kamieni, 14 idzie do talonu. Jeden kamień z talonu zostaje odkryty: jego wyższa połówka wyznacza atu (dla [5|0] są to mydła). Dobiera się go z talonu jako ostatni. Atutem jest każdy kamień z liczbą atutową; [0|0] („bingo”) jest atutem zawsze.

    <b>Lewa.</b> Pierwsze wyjście w meczu losuje się, potem rozdania zaczyna się na przemian. Wychodzący kładzie dowolny kamień, przeciwnik odpowiada. Lewę bierze: bingo — zawsze; inaczej dublet atutowy; inaczej atut przeciw kamieniowi bez atu; inaczej kamień o większej sumie oczek (mydło = 7); przy równości — wychodzący. Kto wziął lewę, zabiera oba kamienie i wychodzi do następnej.

    <b>Dobieranie.</b> Dopóki talon jest otwarty, po każdej lewie pierwszy dobiera kamień ten, kto ją wziął, potem przeciwnik. Ostatnia para: biorący lewę dostaje zakryty kamień, przeciwnik — odkryty kamień atutowy. Dopóki w talonie są kamienie i nie jest zamknięty, nie ma obowiązku dokładania do koloru ani bicia atutem.

    <b>Punkty</b> (tylko za zdobyte kamienie, sama lewa — 0):
    • dublet atutowy — 28 (także [0|0], gdy atu to mydła);
    • [0|0] przy innym atu — 14;
    • [6|4] i [3|0] — po 10, nawet gdy są atutami;
    • pozostałe dublety — suma oczek ([5|5] = 10);
    • pozostałe atuty — suma oczek (gdy atu to piątki, [5|0] = 12);
    • reszta kamieni — 0.

    <b>Deklaracja dubletów.</b> Wychodząc dubletem, gdy masz 2 dublety lub więcej (razem z tym, którym wychodzisz), możesz zadeklarować i pokazać je wszystkie: 2 — 20 punktów, 3 — 40, 4 — 50, 5 — 60, 6 — 1 duży punkt, 7 — 3 duże punkty. Deklaracja liczy się tylko wtedy, gdy weźmiesz tę lewę. Pozostałe dublety można zadeklarować ponownie przy następnym wyjściu dubletem.

    <b>Zamknięcie.</b> Przed swoim wyjściem, dopóki w talonie są kamienie, możesz zamknąć talon (odwrócić kamień atutowy). Nikt już nie dobiera, obowiązuje dokładanie do koloru, a zamykający zobowiązuje się zdobyć 70.

    <b>Dokładanie do koloru</b> — gdy talon się wyczerpał lub jest zamknięty. Kolor wyjścia to wyższa połówka kamienia wyjścia (mydło = 7: [6|0] to wyjście w mydła).
    • Na atut — atut, jeśli masz; inaczej dowolny kamień.
    • Na kamień bez atu — kamień bez atu w tym samym kolorze; jeśli go nie masz — atut; jeśli i atutu brak — dowolny kamień.

    <b>Koniec rozdania.</b> Rozdanie kończy się od razu, gdy ktoś zdobędzie 70 punktów (wzięte kamienie i zaliczone deklaracje), albo gdy skończą się kamienie. Kto zdobył 70, dostaje 3 duże punkty, jeśli przeciwnik nie wziął żadnej lewy; 2, jeśli przeciwnik ma mniej niż 20 punktów; inaczej 1.
    Jeśli zamykający talon nie zdobył 70 jako pierwszy, przeciwnik dostaje 2 duże punkty (3, jeśli zamykający nie wziął żadnej lewy) i jeszcze 1, jeśli sam zdobył 70. Talonu nie zamknięto, a nikt nie zdobył 70 — bez dużych punktów.
    Bingo, które weźmie dublet atutowy (atu to nie mydła), od razu daje 1 duży punkt. Mecz kończy się, gdy ktoś zdobędzie wymaganą liczbę dużych punktów.

rules-42 =
    <b>42 we dwóch</b> — domino na lewy dla dwóch graczy: 28 kamieni od [0|0] do [6|6]. Mecz do 7 dużych punktów.

    <b>Kolory (cyfry).</b> Siedem kolorów: mydła (0), jedynki… szóstki; mydło jest tu zwykłym zerem. Kamień należy do obu kolorów swoich połówek. Dublet jest najwyższy w swoim kolorze, pozostałe kamienie koloru liczą się według drugiej połówki (w szóstkach [6|5] jest wyżej niż [6|4]). Po wyborze atu każdy kamień z liczbą atutową jest tylko atutem.

    <b>Rozdanie.</b> Pierwszego otwierającego wybiera się losowo, potem na przemian. Każdy dobiera 7 kamieni (pierwszy przeciwnik otwierającego), 14 zostaje w talonie.

    <b>Dobieranie</b> — 7 lew bez atu i bez obowiązku dokładania do koloru. Pierwszy wychodzi otwierający. Kolor wyjścia to wyższa połówka kamienia wyjścia; odpowiedź bierze lewę tylko wtedy, gdy jest w tym kolorze i jest wyższa, inaczej lewa należy do wychodzącego. Po każdej lewie każdy dobiera kamień z talonu, pierwszy ten, kto lewę przegrał; biorący lewę wychodzi do następnej. Lewy z dobierania nie dają punktów, a wzięte w nich kamienie wypadają z gry.

    <b>Licytacja</b> — gdy talon jest pusty. Zaczyna przeciwnik otwierającego, potem na przemian: odzywka od 4 do 42, wyższa od poprzedniej, albo pas. Pas po odzywce kończy licytację: kto licytował ostatni, zostaje rozgrywającym. Dwa pasy bez odzywki — rozdanie od nowa, z tym samym otwierającym.

    <b>Rozgrywka</b> — 7 lew. Rozgrywający wybiera atu (kolor od 0 do 6) i wychodzi. Kolor wyjścia to atu, jeśli wyjście było atutem, inaczej wyższa połówka kamienia wyjścia. Trzeba dołożyć do koloru wyjścia; jeśli nie można — zagrać atutem; jeśli i atutu brak — dowolnym kamieniem. Lewę bierze najwyższy atut, inaczej najwyższy kamień w kolorze wyjścia. Biorący lewę wychodzi do następnej.

    <b>Punkty</b> — tylko w rozgrywce: 1 za każdą wziętą lewę plus kamienie punktujące w lewach: [5|5] i [6|4] — po 10, [4|1], [3|2] i [5|0] — po 5. Razem najwyżej 42.

    <b>Wynik.</b> Jeśli rozgrywający zdobył co najmniej tyle, ile wylicytował, dostaje 1 duży punkt; inaczej 1 duży punkt dostaje przeciwnik. Mecz do 7 dużych punktów.
