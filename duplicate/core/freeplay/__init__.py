"""Free play (« donnes libres », SPEC §13): each table deals its own cards, the North keeps the feuille de
marque, the players change tables by the FFT movement and are ranked by total points.

Sources: ``seeds/fft-fascicule-free-play-ocr.txt`` (the FFT booklet « Fascicule 2 : Donnes libres »,
chapters 1–5, OCR), ``seeds/rules-of-play.txt`` (the same chapter 1, clean text: scores at 3, 4 and 5
players) and ``seeds/tournament-rules-club.txt``.

* `scoring`: a deal's facts → each player's score at 3, 4 and 5 players (sum zero);
* `feuille`: the feuille de marque's foot (+, −, bilan) and the arbiter's zero-sum checks;
* `movements`: the FFT movement (N fixed, S +1, E +2, W −2 and the booklet's exceptions), the 3- and
  4-table Howell schedules (with numbers absent at 11 and 13–15 players), the tables of 3, the team
  movements, the carré final, best against best, the random set-up, the fiche personnelle and table cards,
  libre par 4 in 4 parallel tournaments, and a validator of meetings and repeats;
* `ranking`: total points, ties by art. 29, lateness (art. 26), withdrawals (art. 27), teams;
* `coefficients`: coefficients between positions with elimination (regional championship, art. 3);
* `penalties`: the arbitration code's catalogue (chapter 4);
* `prizes`: the prize list (20 %) and the special prize of the last two positions;
* `pcn`: chapter 5, PCN and PP attribution;
* `tournament`: a SPEC §13 file → every deal's marks and the ranking (the ``rank`` command).
"""
