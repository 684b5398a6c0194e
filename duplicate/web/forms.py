"""The web forms (Flask-WTF: each one carries its CSRF token), with French labels and messages.

Forms check only the shape of what is typed (present, a whole number, not too long); the rules and
ranges themselves are the operations' (`duplicate.operations`), whose `OperationError` is shown next to
the field it names.

Every number a person types is a `NumberField`: a text box (never ``<input type="number">``, which
Chromium reads with the browser's locale: « 2,5 » became 25 in an English browser), read by
`duplicate.french.parse_number` (comma or point, ``-`` or ``−``, spaces; SPEC §11).  A refused number
stays in the box, with a French message under it.
"""

from decimal import Decimal
from fractions import Fraction

from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import (
    BooleanField, DateField, Field, HiddenField, PasswordField, SelectField, SelectMultipleField, StringField, TextAreaField,
)
from wtforms.validators import DataRequired, InputRequired, Length, Optional, StopValidation
from wtforms.fields.choices import SelectChoice
from wtforms.meta import DefaultMeta
from wtforms.widgets import CheckboxInput, ListWidget, TextInput

from duplicate import french
from duplicate.core.cards import LINE_NAMES, SEAT_NAMES
from duplicate.core.formats import KIND_LABELS
from duplicate.web.form_conflicts import Guarded

REQUIRED = "Ce champ est obligatoire."
MAX_UPLOAD = 5 * 1024 * 1024  # a tournament or deals file is far smaller

SEAT_LABELS = SEAT_NAMES


def choices(labels: dict) -> list[SelectChoice]:
    return [SelectChoice(value, label) for value, label in labels.items()]


def _strip(value):
    return value.strip() if isinstance(value, str) else value


class FrenchForm(FlaskForm):
    """Base form: French messages for the built-in validators, values stripped of surrounding blanks."""

    class Meta:
        locales = ["fr"]

        def get_translations(self, form):
            # WTForms' own French catalogue (Flask-WTF would want Flask-Babel for it).
            return DefaultMeta.get_translations(self, form)

        def bind_field(self, form, unbound_field, options):
            filters = options.get("filters") or ()
            if unbound_field.field_class in (StringField, TextAreaField):
                options["filters"] = (*filters, _strip)
            return unbound_field.bind(form=form, **options)


def required(message: str = REQUIRED):
    return DataRequired(message=message)


def length(maximum: int):
    return Length(max=maximum, message=f"{maximum} caractères au plus.")


class NumberField(Field):
    """A number typed the French way (« 2,5 », « −3 », « 1 000 ») or with a point.

    ``data`` is the exact value (a `Fraction`; an ``int`` when ``whole``), ``None`` when the box is
    empty; what was typed is shown back as typed.
    """

    widget = TextInput()

    def __init__(self, label=None, validators=None, whole: bool = False, **kwargs):
        render_kw = {"inputmode": "numeric" if whole else "decimal", "autocomplete": "off",
                     **(kwargs.pop("render_kw", None) or {})}
        super().__init__(label, validators, render_kw=render_kw, **kwargs)
        self.whole = whole

    def process_data(self, value):
        """The default or the object's value as an exact number, as a typed one would be: a `Decimal` given
        by the page (a séance's coefficient) stayed a `Decimal` when a posted form left the field out, and
        `french.plain` then failed (a 500, issue 31)."""
        if isinstance(value, (int, Decimal, Fraction)) and not isinstance(value, bool):
            exact = french.exact(value)
            self.data = int(exact) if self.whole and exact.denominator == 1 else exact
        else:
            self.data = None

    def process_formdata(self, valuelist):
        if not valuelist:
            return
        text = valuelist[0] if isinstance(valuelist[0], str) else ""
        self.data = None
        if not text.strip():
            return
        try:
            self.data = french.parse_whole_number(text) if self.whole else french.parse_number(text)
        except french.NumberError as error:
            raise ValueError(str(error)) from None

    def _value(self):
        if self.raw_data:
            return self.raw_data[0]
        if self.data is None:
            return ""
        return str(french.plain(french.exact(self.data))).replace(".", ",")


def needed(message: str = "Indiquez un nombre."):
    """A `NumberField` that must not be left empty (0 is a value, unlike with DataRequired)."""

    def check(form, field):
        if field.process_errors:
            raise StopValidation()  # the field already says why the number was refused
        if field.data is None:
            raise StopValidation(message)

    return check


def at_least(low: int, high: int, message: str):
    """A whole number between ``low`` and ``high`` (when one was typed)."""

    def check(form, field):
        if field.data is not None and not low <= field.data <= high:
            raise StopValidation(message)

    return check


class LoginForm(FrenchForm):
    username = StringField("Identifiant", validators=[required(), length(100)])
    password = PasswordField("Mot de passe", validators=[required()])


def same_as(other: str, message: str):
    """The field repeats field `other` (a new password typed twice)."""

    def check(form, field):
        if field.data != form[other].data:
            raise StopValidation(message)

    return check


class PasswordChangeForm(FrenchForm):
    """One's own password: the current one, the new one twice."""

    current = PasswordField("Mot de passe actuel", validators=[required()])
    password = PasswordField("Nouveau mot de passe", validators=[required(), length(200)],
                             description="8 caractères au moins.")
    confirm = PasswordField("Nouveau mot de passe, encore", validators=[
        required(), same_as("password", "Les deux mots de passe diffèrent.")])


class PasswordResetForm(FrenchForm):
    """A scorer's new password, set by the arbiter."""

    password = PasswordField("Nouveau mot de passe", validators=[required(), length(200)],
                             description="8 caractères au moins ; donnez-le au marqueur.")


class ScorerForm(FrenchForm):
    """A new scorer account for one tournament."""

    username = StringField("Identifiant", validators=[required(), length(100)],
                           description="3 à 100 lettres, chiffres, « . », « @ », « - » ou « _ ».")
    password = PasswordField("Mot de passe", validators=[required(), length(200)],
                             description="8 caractères au moins ; donnez-le au marqueur.")


class GrantForm(FrenchForm):
    """Give the tournament to an existing account (an arbiter becomes co-arbiter)."""

    username = StringField("Identifiant du compte", validators=[required(), length(100)])


TOKEN_ROLES = {"scorer": "Saisie des résultats (marqueur)", "arbiter": "Arbitre (classement avant publication)"}


class TokenForm(FrenchForm):
    """A new API token for one tournament."""

    label = StringField("Nom du jeton", validators=[Optional(), length(100)],
                        description="Pour le reconnaître : « tablette salle 2 »…")
    role = SelectField("Droits", choices=choices(TOKEN_ROLES), default="scorer",
                       validators=[InputRequired(message=REQUIRED)])


class ActionForm(FrenchForm):
    """A button that only needs its CSRF token (sign out, accept a movement…)."""


class TournamentForm(FrenchForm):
    name = StringField("Nom du tournoi", validators=[required(), length(200)])
    kind = SelectField("Formule", choices=choices(KIND_LABELS), validators=[InputRequired(message=REQUIRED)])
    date = DateField("Date", validators=[Optional()], format="%Y-%m-%d")
    place = StringField("Lieu", validators=[Optional(), length(200)])
    colour = StringField("Couleur du tournoi", validators=[Optional(), length(40)],
                         description="Imprimée sur les étiquettes des étuis, par exemple « vert ».")
    sessions = NumberField("Nombre de séances", default=1, whole=True,
                           validators=[needed("Indiquez un nombre entier.")])
    timezone = SelectField("Fuseau horaire", choices=french.timezones, default=french.DEFAULT_TIMEZONE,
                           description="Les heures (historique, journal, impressions) sont données dans ce fuseau.")
    championship = BooleanField(
        "Championnat (donnes libres) : ex æquo départagés par l’article 29",
        description="Sans cette case, les ex æquo d’un tournoi libre partagent la place et les PCN des places "
                    "qu’ils occupent (fascicule FFT, chapitre 5, « Ex-aequo »).")


class TimezoneForm(FrenchForm, Guarded):
    """The time zone of an existing tournament (SPEC §11)."""

    timezone = SelectField("Fuseau horaire", choices=french.timezones, default=french.DEFAULT_TIMEZONE)


class PlayerForm(FrenchForm):
    licence = StringField("Licence", validators=[Optional(), length(20)])
    surname = StringField("Nom", validators=[required(), length(100)])
    first_name = StringField("Prénom", validators=[required(), length(100)])
    club = StringField("Club", validators=[Optional(), length(100)])


class PlayerEditForm(PlayerForm, Guarded):
    """A registered player's form: the values it showed go with it (`form_conflicts`, two arbiters at once)."""


class UploadForm(FrenchForm):
    """A file to upload or its text pasted in the box; the text box keeps what was pasted."""

    file = FileField("Fichier")
    text = TextAreaField("Ou collez son contenu ici")

    def content(self, decode=None) -> str:
        """The uploaded file's text when a file was sent, else the pasted text.  ``decode`` (bytes →
        text, ValueError with a French message) reads the file; UTF-8 with or without BOM by default."""
        upload = self.file.data
        if upload and getattr(upload, "filename", ""):
            raw = upload.read(MAX_UPLOAD + 1)
            if len(raw) > MAX_UPLOAD:
                raise ValueError("Le fichier est trop gros (5 Mo au plus).")
            if decode is not None:
                text = decode(raw)
            else:
                try:
                    text = raw.decode("utf-8-sig")
                except UnicodeDecodeError:
                    raise ValueError("Le fichier n’est pas en UTF-8.") from None
            self.text.data = text
            return text
        return self.text.data or ""

    def validate(self, extra_validators=None):
        if not super().validate(extra_validators):
            return False
        upload = self.file.data
        if not (upload and getattr(upload, "filename", "")) and not (self.text.data or "").strip():
            self.text.errors.append("Choisissez un fichier ou collez son contenu.")
            return False
        return True


class PlayersImportForm(UploadForm):
    """A players list: first a preview (nothing stored), then ``confirm`` with the text previewed and
    the number of players the preview accepted (``expected``), checked again before storing."""

    confirm = HiddenField()
    expected = HiddenField()


class TeamForm(FrenchForm):
    name = StringField("Nom de l’équipe", validators=[required(), length(200)])
    player_ids = SelectMultipleField(
        "Joueurs", coerce=int, widget=ListWidget(prefix_label=False), option_widget=CheckboxInput(),
        validators=[InputRequired(message="Choisissez les joueurs de l’équipe.")],
    )
    line = SelectField("Ligne", choices=choices({"": "—", "NS": LINE_NAMES["NS"], "EW": LINE_NAMES["EW"]}), validators=[Optional()])


class DrawForm(FrenchForm):
    seed = StringField("Graine", validators=[Optional(), length(200)],
                       description="Laissez vide pour un tirage au hasard.")


class BoardsForm(FrenchForm):
    count = NumberField("Nombre d’étuis", whole=True, validators=[needed("Indiquez un nombre entier.")])
    seed = StringField("Graine", validators=[Optional(), length(200)],
                       description="Laissez vide pour une graine tirée au hasard (affichée ensuite, avec son empreinte).")


class HandsForm(FrenchForm, Guarded):
    """The deal of one étui in the interchange notation (« KS 10D 21T EX… »): 18 cards a seat, 6 in the
    chien; the rules (78 distinct cards, no petit sec) are checked by the operation."""

    N = TextAreaField("Nord", validators=[required()])
    S = TextAreaField("Sud", validators=[required()])
    E = TextAreaField("Est", validators=[required()])
    W = TextAreaField("Ouest", validators=[required()])
    dog = TextAreaField("Chien", validators=[required()])
    dealer = SelectField("Donneur", choices=choices(SEAT_LABELS))
    taker = SelectField("Preneur", choices=choices(SEAT_LABELS))


class MovementForm(FrenchForm):
    positions = NumberField("Nombre de positions", whole=True, validators=[
        at_least(1, 50, "Entre 1 et 50 positions."),
    ], description="Laissez vide pour le nombre conseillé.")
    #: a team match only (issue 29 point 10): 16 to 24 donnes in 4 quarters (seed « DUPLICATE PAR ÉQUIPES »),
    #: the same number of étuis each quarter; the page shows it when the positions are quarters
    quarter_boards = SelectField("Étuis du match", choices=choices({
        "4": "16 étuis (4 par quart temps)", "5": "20 étuis (5 par quart temps)", "6": "24 étuis (6 par quart temps)",
    }), default="5", description="Le règlement prévoit de 16 à 24 donnes, en 4 quarts temps.")


# --- the arbiter's adjustments (SPEC §4) and competitions ----------------------------------------------

def reason_field():
    return StringField("Motif", validators=[required("Indiquez le motif de la décision."), length(500)])


class AnnulForm(FrenchForm):
    """Annul a deal, or restore it (``restore`` set)."""

    reason = reason_field()
    version = HiddenField()
    restore = HiddenField()


class AdjustForm(FrenchForm):
    score = StringField("Score de l’arbitre", validators=[required()])
    reason = reason_field()
    version = HiddenField()


class NoteForm(FrenchForm):
    taker = NumberField("Note du preneur (%)", validators=[needed(REQUIRED)])
    defence = NumberField("Note de la défense (%)", validators=[needed(REQUIRED)])
    reason = reason_field()
    version = HiddenField()


class PenaltyForm(FrenchForm):
    entrant_id = SelectField("Participant", validators=[InputRequired(message=REQUIRED)])
    points = NumberField("Points", validators=[needed()],
                         description="Points de pourcentage (PM en quadrettes et en match par équipes).")
    board = NumberField("Étui", whole=True, description="Laissez vide pour retirer les points du "
                         "% global ; sinon, ils sont retirés de la note de cet étui.")
    reason = reason_field()


class SeriesForm(FrenchForm):
    name = StringField("Nom de la compétition", validators=[required(), length(200)])


class MinutesForm(FrenchForm, Guarded):
    """The live room's « Minutes par étui » (its other fields are plain inputs; `form_conflicts`, two arbiters
    at once): the operation checks the number."""

    minutes = StringField("Minutes par étui")


class CoefficientForm(FrenchForm, Guarded):
    """A séance's coefficient on its competition's page (`form_conflicts`, two arbiters at once)."""

    coefficient = NumberField("Coefficient", default=1, validators=[needed()])


class SessionForm(FrenchForm, Guarded):
    series_id = SelectField("Compétition", coerce=int)
    coefficient = NumberField("Coefficient de la séance", default=1, validators=[needed()])
