"""Free play (« donnes libres », SPEC §13): each table deals its own cards, the North keeps the feuille de
marque, the players change tables by the FFT movement and are ranked by total points.

Sources: ``seeds/fft-fascicule-free-play-ocr.txt`` (the FFT booklet « Fascicule 2 : Donnes libres »,
chapters 1–5, OCR), ``seeds/rules-of-play.txt`` (the same chapter 1, clean text: scores at 3, 4 and 5
players) and ``seeds/tournament-rules-club.txt``.

* `scoring`: a deal's facts → each player's score at 3, 4 and 5 players (sum zero);
* `movements`: the FFT movement (N fixed, S +1, E +2, W −2 and the booklet's exceptions), the 3- and
  4-table Howell schedules, the tables of 3, and a validator of meetings and repeats;
* `ranking`: total points, ties by art. 29, lateness (art. 26), withdrawals (art. 27);
* `pcn`: chapter 5, PCN and PP attribution.
"""
