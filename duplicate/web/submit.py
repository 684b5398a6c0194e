"""What every form view shares: the answer's status, an operation's refusal shown on its form, an upload
form's text. A view that shows a refused form again answers 422 (`UNPROCESSABLE`), so that the request's
session rolls back whatever the operation had flushed: a refused form changes nothing (`duplicate.db`).
Below the views: it imports none."""

from duplicate.web import forms

UNPROCESSABLE = 422


def form_status(form) -> int:
    """200 for a blank form, 422 for a submitted one shown again (refused: the request rolls back)."""
    return UNPROCESSABLE if form.is_submitted() else 200


def show_error(form, error) -> None:
    """Put an `OperationError` next to its field, or above the form when it names none of its fields."""
    field = form._fields.get(error.field) if error.field else None
    if field is not None:
        field.errors = [*field.errors, error.message]
    else:
        form.form_errors.append(error.message)


def uploaded_text(form: forms.UploadForm, decode=None) -> str | None:
    """The text of an upload form's file or text box; None (and the error shown) when unreadable."""
    try:
        return form.content(decode)
    except ValueError as error:
        form.file.errors = [*form.file.errors, str(error)]
        return None
