"""What every form view shares: `submit` (validate → operation → flash and redirect, or the page again),
`act` (a one-click action: operation → flash and redirect, or the error flashed on the page), the answer's
status, an operation's refusal shown on its form, an upload form's text. A view that shows a refused form
again answers 422 (`UNPROCESSABLE`), so that the request's session rolls back whatever the operation had
flushed: a refused form changes nothing (`duplicate.db`). Below the views: it imports none."""

from flask import abort, flash, redirect

from duplicate import operations
from duplicate.web import form_conflicts, forms

UNPROCESSABLE = 422
FORBIDDEN = 403
#: a one-click action whose button's form failed its check (the page's CSRF token expired): nothing ran
EXPIRED = "Le formulaire a expiré : recommencez."


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


def refusal_status(error, forbidden: bool = False, conflict: bool = False) -> int:
    """The status of a page shown again after ``error``: 422, or — when the view says so — 403 for a
    `Refused` (``forbidden``: not this account's to do) and 409 for a `ConflictError` (``conflict``: changed
    by someone else since the page was read)."""
    if forbidden and isinstance(error, operations.Refused):
        return FORBIDDEN
    if conflict and isinstance(error, operations.ConflictError):
        return form_conflicts.CONFLICT
    return UNPROCESSABLE


def submit(form, operation, done, page, valid=None, *, forbidden=False, conflict=False):
    """The shape of every form view (Indico's ``RHCreateSession._process``): validate → operation → flash
    and redirect, or the page again.

    When ``valid`` — by default ``form.validate_on_submit()``; a guarded form passes
    `form_conflicts.guard`, an upload form the text read (`uploaded_text`) is not None — ``operation()``
    runs. Its `OperationError` goes next to the field it names (`show_error`) and the page is shown again;
    else ``done(result)`` gives the success message and the address it is flashed on (or the response that
    answers; no message, None, where that page tells the result itself). ``page(status)`` shows the form:
    200 blank, 422 refused (the request rolls back what the operation flushed), 409 after another
    arbiter's conflicting save (`form_conflicts`); with ``forbidden``
    a `Refused` answers 403, with ``conflict`` a `ConflictError` 409 (`refusal_status`)."""
    if form.validate_on_submit() if valid is None else valid:
        try:
            result = operation()
        except operations.OperationError as error:
            show_error(form, error)
            return page(refusal_status(error, forbidden, conflict))
        return _done(done(result))
    return page(form_conflicts.status(form, form_status(form)))


def act(operation, done, page, *, valid=True, forbidden=False, not_found=False):
    """The shape of a one-click action (a POST button, no field to show an error next to): when ``valid`` —
    the button's form passed its check (``forms.ActionForm().validate_on_submit()``) — ``operation()``
    runs; else nothing runs, `EXPIRED` is flashed as an error and ``page(422)`` answers. Its
    `OperationError` is flashed as an error and ``page(status)`` answers (422, or 403 for a `Refused` with
    ``forbidden``) — with ``not_found`` a `NotFound` (the player, the row in the address) answers 404
    instead; else ``done(result)`` gives the success message and the address it is flashed on (or the
    response that answers), as `submit`."""
    if not valid:
        flash(EXPIRED, "error")
        return page(UNPROCESSABLE)
    try:
        result = operation()
    except operations.OperationError as error:
        if not_found and isinstance(error, operations.NotFound):
            abort(404)
        flash(error.message, "error")
        return page(refusal_status(error, forbidden))
    return _done(done(result))


def _done(answer):
    message, address = answer
    if message is not None:
        flash(message, "success")
    return redirect(address) if isinstance(address, str) else address
