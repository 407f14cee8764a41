## Rules of each preset, for /rules (no variables: the text is the same for every group).
## Layout: the preset's name, the goal, how to play in the bot, a short summary, then every detail
## folded in one expandable blockquote.

rules-bingo =
    <b>Bingo</b>
    Cel: jako pierwszy zdobyć 70 punktów w rozdaniu; mecz do 8 dużych punktów (grupa może wybrać 7).
    W bocie: twoje kamienie to przyciski na prywatnym czacie z botem; 🚫 — tego kamienia teraz nie zagrasz (naciśnij — zobaczysz dlaczego), 📣 — wyjdź dubletem i zadeklaruj dublety, 🚧 — zamknij talon. Stół widać na czacie grupowym.
    ⏰ Czas na ruch ustawia się w /settings (zwykle 10 minut): w połowie — przypomnienie, po czasie — porażka; bez zegara po dobie bez ruchu można wygrać walkowerem.

    • Po 7 kamieni na rękę, 14 do talonu; odkryty kamień talonu wyznacza atu.
    • Wychodzący kładzie dowolny kamień, rywal odpowiada; wyższy kamień bierze lewę, biorący wychodzi do następnej, obaj dobierają z talonu.
    • Punkty dają wzięte atuty, dublety, [6|4], [3|0] i zadeklarowane dublety.
    • Talon pusty lub zamknięty — dokładasz do koloru.
    <blockquote expandable><b>Atu.</b> Mydło (pusta połówka) liczy się wszędzie jako 7, wyżej niż szóstka. Atu wyznacza wyższa połówka odkrytego kamienia talonu ([5|0] — mydła); atutem jest każdy kamień z tą liczbą, a [0|0] („bingo”) — zawsze.
    <b>Lewa.</b> W pierwszym rozdaniu meczu pierwszy wychodzi gracz wylosowany, w kolejnych rozdaniach — na przemian. Bierze bingo, inaczej dublet atutowy, inaczej atut przeciw kamieniowi nieatutowemu, inaczej kamień o większej sumie oczek (kolor bez znaczenia), przy równości — wychodzący.
    <b>Dobieranie.</b> Po lewie dobiera biorący, potem rywal; w ostatniej parze biorący dostaje zakryty kamień, rywal — odkryty atutowy.
    <b>Punkty</b> — za wzięte kamienie, nie za lewy: dublet atutowy — 28; [0|0] — 14 (gdy atu to mydła — 28); [6|4] i [3|0] — po 10, nawet atutowe; pozostałe dublety i atuty — suma oczek ([5|0] przy atu w piątkach — 12); reszta — 0.
    <b>Deklaracja dubletów.</b> Wychodząc dubletem, gdy masz ich co najmniej 2 (razem z nim), możesz zadeklarować i pokazać wszystkie: 2 — 20 punktów, 3 — 40, 4 — 50, 5 („król”) — 60, 6 („cesarz”) — 1 duży punkt, 7 („niezwyciężony”) — 3 duże punkty. Liczy się tylko, gdy weźmiesz tę lewę; pozostałe możesz zadeklarować znowu przy kolejnym wyjściu dubletem.
    <b>Zamknięcie.</b> Przed swoim wyjściem, póki talon nie jest pusty, możesz go zamknąć: koniec dobierania, a zamykający zobowiązuje się zdobyć 70.
    <b>Dokładanie do koloru</b> — gdy talon jest pusty lub zamknięty. Kolor wyjścia to wyższa połówka kamienia wyjścia ([6|0] — mydła). Na atut — atut, jeśli masz. Na kamień nieatutowy — nieatutowy tego koloru; nie masz go — nieatutowy z niższą połówką kamienia wyjścia; nie masz i takiego — dowolny.
    <b>Koniec rozdania</b> — gdy ktoś zdobędzie 70 albo skończą się kamienie. Zdobywca 70 dostaje 3 duże punkty, gdy rywal nie ma żadnej lewy, 2 — gdy ma mniej niż 20 punktów, inaczej 1. Zamykający nie zdobył 70 jako pierwszy — rywal dostaje 2 (3, jeśli zamknięto przed pierwszą lewą) i jeszcze 1, jeśli sam zdobył 70. Talonu nie zamknięto i nikt nie zdobył 70 — bez dużych punktów. Bingo wzięło dublet atutowy (atu to nie mydła) — od razu 1 duży punkt dla właściciela bingo.</blockquote>

rules-bingo-classic =
    <b>Bingo z przymusem przebicia</b>
    Cel: jako pierwszy zdobyć 70 punktów w rozdaniu; mecz do 7 dużych punktów (grupa może wybrać 8).
    W bocie: twoje kamienie to przyciski na prywatnym czacie z botem; 🚫 — tego kamienia teraz nie zagrasz (naciśnij — zobaczysz dlaczego), 📣 — wyjdź dubletem i zadeklaruj dublety, 🚧 — zamknij talon. Stół widać na czacie grupowym.
    ⏰ Czas na ruch ustawia się w /settings (zwykle 10 minut): w połowie — przypomnienie, po czasie — porażka; bez zegara po dobie bez ruchu można wygrać walkowerem.

    • Gra jak zwykłe Bingo (lewy, dobieranie z talonu, potem dokładanie do koloru), ale:
    • na kamień nieatutowy dokładaj do koloru i przebijaj, jeśli możesz; nie masz koloru — dowolny kamień (niższa połówka kamienia wyjścia nie ma tu znaczenia);
    • z ostatniej pary talonu biorący lewę sam wybiera sobie kamień;
    • deklaracja 6 dubletów — 70 punktów, 7 — 210, z bingo — jeszcze 10;
    • 2 duże punkty — gdy rywal ma mniej niż 30 punktów.
    <blockquote expandable><b>Atu.</b> Mydło (pusta połówka) liczy się wszędzie jako 7, wyżej niż szóstka. Atu wyznacza wyższa połówka odkrytego kamienia talonu ([5|0] — mydła); atutem jest każdy kamień z tą liczbą, a [0|0] („bingo”) — zawsze.
    <b>Lewa.</b> W pierwszym rozdaniu meczu pierwszy wychodzi gracz wylosowany, w kolejnych rozdaniach — na przemian. Bierze bingo, inaczej dublet atutowy, inaczej atut przeciw kamieniowi nieatutowemu, inaczej kamień o większej sumie oczek (kolor bez znaczenia), przy równości — wychodzący.
    <b>Dobieranie.</b> Po lewie dobiera biorący, potem rywal; z ostatniej pary (odkryty atutowy i zakryty) biorący wybiera jeden, rywal dostaje drugi.
    <b>Punkty</b> — za wzięte kamienie, nie za lewy: dublet atutowy — 28; [0|0] — 14 (gdy atu to mydła — 28); [6|4] i [3|0] — po 10, nawet atutowe; pozostałe dublety i atuty — suma oczek ([5|0] przy atu w piątkach — 12); reszta — 0.
    <b>Deklaracja dubletów.</b> Wychodząc dubletem, gdy masz ich co najmniej 2 (razem z nim), możesz zadeklarować i pokazać wszystkie: 2 („duplet”) — 20 punktów, 3 („tercet”) — 40, 4 („podwójny duplet”) — 50, 5 („król”) — 60, 6 („cesarz”) — 70, 7 („niezwyciężony”) — 210; z bingo wśród nich — jeszcze 10. Liczy się tylko, gdy weźmiesz tę lewę; pozostałe możesz zadeklarować znowu przy kolejnym wyjściu dubletem.
    <b>Zamknięcie.</b> Przed swoim wyjściem, póki talon nie jest pusty, możesz go zamknąć: koniec dobierania, a zamykający zobowiązuje się zdobyć 70.
    <b>Dokładanie do koloru</b> — gdy talon jest pusty lub zamknięty. Kolor wyjścia to wyższa połówka kamienia wyjścia ([6|0] — mydła). Na atut — atut, jeśli masz. Na kamień nieatutowy — nieatutowy tego koloru, a jeśli możesz nim przebić, musisz; nie masz koloru — dowolny kamień.
    <b>Koniec rozdania</b> — gdy ktoś zdobędzie 70 albo skończą się kamienie. Zdobywca 70 dostaje 3 duże punkty, gdy rywal nie ma żadnej lewy, 2 — gdy ma mniej niż 30 punktów, inaczej 1. Zamykający nie zdobył 70 jako pierwszy — rywal dostaje 2 (3, jeśli zamknięto przed pierwszą lewą) i jeszcze 1, jeśli sam zdobył 70. Talonu nie zamknięto i nikt nie zdobył 70 — bez dużych punktów. Bingo wzięło dublet atutowy (atu to nie mydła) — od razu 1 duży punkt dla właściciela bingo.</blockquote>

rules-bingo-domino =
    <b>Bingo z przymusem bicia atutem</b>
    Cel: jako pierwszy zdobyć 70 punktów w rozdaniu; mecz do 7 dużych punktów (grupa może wybrać 8).
    W bocie: twoje kamienie to przyciski na prywatnym czacie z botem; 🚫 — tego kamienia teraz nie zagrasz (naciśnij — zobaczysz dlaczego), 📣 — wyjdź dubletem i zadeklaruj dublety, 🚧 — zamknij talon. Stół widać na czacie grupowym.
    ⏰ Czas na ruch ustawia się w /settings (zwykle 10 minut): w połowie — przypomnienie, po czasie — porażka; bez zegara po dobie bez ruchu można wygrać walkowerem.

    • Gra jak zwykłe Bingo (lewy, dobieranie z talonu, potem dokładanie do koloru), ale:
    • nie masz koloru — musisz bić atutem, jeśli go masz (niższa połówka kamienia wyjścia nie ma tu znaczenia);
    • „król” to 4 dublety (50 punktów), a nie 5;
    • zamykający nie zdobył 70 i nie wziął żadnej lewy — rywal dostaje 3 duże punkty, a nie 2.
    <blockquote expandable><b>Atu.</b> Mydło (pusta połówka) liczy się wszędzie jako 7, wyżej niż szóstka. Atu wyznacza wyższa połówka odkrytego kamienia talonu ([5|0] — mydła); atutem jest każdy kamień z tą liczbą, a [0|0] („bingo”) — zawsze.
    <b>Lewa.</b> W pierwszym rozdaniu meczu pierwszy wychodzi gracz wylosowany, w kolejnych rozdaniach — na przemian. Bierze bingo, inaczej dublet atutowy, inaczej atut przeciw kamieniowi nieatutowemu, inaczej kamień o większej sumie oczek (kolor bez znaczenia), przy równości — wychodzący.
    <b>Dobieranie.</b> Po lewie dobiera biorący, potem rywal; w ostatniej parze biorący dostaje zakryty kamień, rywal — odkryty atutowy.
    <b>Punkty</b> — za wzięte kamienie, nie za lewy: dublet atutowy — 28; [0|0] — 14 (gdy atu to mydła — 28); [6|4] i [3|0] — po 10, nawet atutowe; pozostałe dublety i atuty — suma oczek ([5|0] przy atu w piątkach — 12); reszta — 0.
    <b>Deklaracja dubletów.</b> Wychodząc dubletem, gdy masz ich co najmniej 2 (razem z nim), możesz zadeklarować i pokazać wszystkie: 2 — 20 punktów, 3 — 40, 4 („król”) — 50, 5 — 60, 6 („cesarz”) — 1 duży punkt, 7 („niezwyciężony”) — 3 duże punkty. Liczy się tylko, gdy weźmiesz tę lewę; pozostałe możesz zadeklarować znowu przy kolejnym wyjściu dubletem.
    <b>Zamknięcie.</b> Przed swoim wyjściem, póki talon nie jest pusty, możesz go zamknąć: koniec dobierania, a zamykający zobowiązuje się zdobyć 70.
    <b>Dokładanie do koloru</b> — gdy talon jest pusty lub zamknięty. Kolor wyjścia to wyższa połówka kamienia wyjścia ([6|0] — mydła). Na atut — atut, jeśli masz. Na kamień nieatutowy — nieatutowy tego koloru; nie masz go — atut; nie masz i atutu — dowolny kamień.
    <b>Koniec rozdania</b> — gdy ktoś zdobędzie 70 albo skończą się kamienie. Zdobywca 70 dostaje 3 duże punkty, gdy rywal nie ma żadnej lewy, 2 — gdy ma mniej niż 20 punktów, inaczej 1. Zamykający nie zdobył 70 jako pierwszy — rywal dostaje 2 (3, jeśli zamykający nie wziął żadnej lewy) i jeszcze 1, jeśli sam zdobył 70. Talonu nie zamknięto i nikt nie zdobył 70 — bez dużych punktów. Bingo wzięło dublet atutowy (atu to nie mydła) — od razu 1 duży punkt dla właściciela bingo.</blockquote>

rules-42 =
    <b>42 we dwoje</b>
    Cel: ugrać w rozgrywce co najmniej tyle, ile wylicytujesz; mecz do 7 dużych punktów.
    W bocie: twoje kamienie to przyciski na prywatnym czacie z botem; 🚫 — tego kamienia teraz nie zagrasz (naciśnij — zobaczysz dlaczego); odzywki, pas i atu to też przyciski. Stół widać na czacie grupowym.
    ⏰ Czas na ruch ustawia się w /settings (zwykle 10 minut): w połowie — przypomnienie, po czasie — porażka; bez zegara po dobie bez ruchu można wygrać walkowerem.

    • Dobieranie: 7 lew bez atu, po każdej obaj dobierają z talonu; te lewy nie dają punktów.
    • Licytacja: odzywka od 4 do 42 albo pas; kto zalicytował najwyżej, wybiera atu i wychodzi.
    • Rozgrywka: 7 lew, dokładasz do koloru, a bez koloru — atut. Punkty: po 1 za lewę plus [5|5] i [6|4] po 10, [4|1], [3|2] i [5|0] po 5.
    • Ugrasz kontrakt — duży punkt dla ciebie; rywal nie ugrał kontraktu — też dla ciebie.
    <blockquote expandable><b>Kolory.</b> Siedem kolorów: mydła (0), jedynki… szóstki; mydło to tu zwykłe zero. Kamień należy do kolorów obu swoich połówek. Dublet jest najwyższy w kolorze, pozostałe kamienie koloru liczą się według drugiej połówki ([6|5] jest wyżej niż [6|4]). Po wyborze atu kamień z liczbą atutową jest tylko atutem.
    <b>Rozdanie.</b> Otwierającego pierwsze rozdanie wyznacza losowanie, w kolejnych rozdaniach otwierają na przemian. Każdy dobiera 7 kamieni (pierwszy — rywal otwierającego), 14 zostaje w talonie.
    <b>Dobieranie</b> — 7 lew bez atu i bez obowiązku dokładania do koloru. Pierwszy wychodzi otwierający. Kolor wyjścia to wyższa połówka kamienia wyjścia; odpowiedź bierze lewę tylko wyższym kamieniem tego koloru, inaczej lewa należy do wychodzącego. Po każdej lewie obaj dobierają po kamieniu z talonu, pierwszy przegrany; biorący wychodzi do następnej. Te lewy nie dają punktów, a wzięte w nich kamienie wypadają z gry.
    <b>Licytacja</b> — gdy talon jest pusty. Zaczyna rywal otwierającego, potem na przemian. Odzywki: od 4 do 42, każda wyższa od poprzedniej, albo pas. Pas po odzywce kończy licytację: kto licytował ostatni, zostaje rozgrywającym. Dwa pasy bez odzywki — rozdanie od nowa, z tym samym otwierającym.
    <b>Rozgrywka</b> — 7 lew. Rozgrywający wybiera atu (kolor od 0 do 6) i wychodzi. Kolor wyjścia to atu, jeśli wyszedł atut, inaczej wyższa połówka kamienia wyjścia. Trzeba dołożyć do koloru wyjścia; nie masz go — atut; nie masz i atutu — dowolny kamień. Lewę bierze najwyższy atut, inaczej najwyższy kamień koloru wyjścia; biorący wychodzi do następnej.
    <b>Punkty</b> — tylko w rozgrywce: 1 za każdą lewę plus kamienie w lewach: [5|5] i [6|4] — po 10, [4|1], [3|2] i [5|0] — po 5. Razem najwyżej 42.
    <b>Wynik.</b> Rozgrywający, który ugrał kontrakt (co najmniej tyle, ile wylicytował), dostaje 1 duży punkt; jeśli nie ugrał kontraktu, 1 duży punkt dostaje rywal.</blockquote>
