"""What every form view shares: `submit` (validate → operation → flash and redirect, or the page again),
the answer's status, an operation's refusal shown on its form, an upload form's text. A view that shows a
refused form again answers 422 (`UNPROCESSABLE`), so that the request's session rolls back whatever the
operation had flushed: a refused form changes nothing (`duplicate.db`). Below the views: it imports none."""

from flask import flash, redirect

from duplicate import operations
from duplicate.web import form_conflicts, forms

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


def submit(form, operation, done, page, valid=None):
    """The shape of every form view (Indico's ``RHCreateSession._process``): validate → operation → flash
    and redirect, or the page again.

    When ``valid`` — by default ``form.validate_on_submit()``; a guarded form passes
    `form_conflicts.guard` — ``operation()`` runs. Its `OperationError` goes next to the field it names
    (`show_error`) and the page is shown again; else ``done(result)`` gives the success message and the
    address it is flashed on (or the response that answers). ``page(status)`` shows the form: 200 blank,
    422 refused (the request rolls back what the operation flushed), 409 after another arbiter's
    conflicting save (`form_conflicts`)."""
    if form.validate_on_submit() if valid is None else valid:
        try:
            result = operation()
        except operations.OperationError as error:
            show_error(form, error)
        else:
            message, address = done(result)
            flash(message, "success")
            return redirect(address) if isinstance(address, str) else address
    return page(form_conflicts.status(form, form_status(form)))
