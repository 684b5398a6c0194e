"""web.submit's shapes by hand: the status of a refused page (`refusal_status`) and `act`, the one-click
action — its success flashed and redirected, its refusal flashed on the page, a 403 or a 404 when asked,
nothing run when its button's form expired."""

import pytest
from flask import Flask, get_flashed_messages
from werkzeug.exceptions import NotFound as HTTPNotFound

from duplicate import operations
from duplicate.web.submit import act, refusal_status


@pytest.mark.parametrize(("error", "forbidden", "conflict", "status"), [
    (operations.OperationError("x"), True, True, 422),
    (operations.Refused("x"), False, False, 422),
    (operations.Refused("x"), True, False, 403),
    (operations.ConflictError("x"), False, False, 422),
    (operations.ConflictError("x"), False, True, 409),
    (operations.NotFound("x"), True, True, 422),
])
def test_refusal_status(error, forbidden, conflict, status):
    assert refusal_status(error, forbidden, conflict) == status


@pytest.fixture
def request_context():
    app = Flask(__name__)
    app.secret_key = "test"
    with app.test_request_context("/", method="POST"):
        yield


def _raise(error):
    raise error


def test_act_flashes_success_and_redirects(request_context):
    response = act(lambda: 7, lambda n: (f"fait {n}", "/ailleurs"), lambda status: ("page", status))
    assert response.status_code == 302 and response.location == "/ailleurs"
    assert get_flashed_messages(with_categories=True) == [("success", "fait 7")]


def test_act_flashes_a_refusal_on_the_page(request_context):
    def never(_):
        raise AssertionError("done called on a refusal")

    assert act(lambda: _raise(operations.Refused("non")), never, lambda status: ("page", status)) == ("page", 422)
    assert act(lambda: _raise(operations.Refused("non")), never, lambda status: ("page", status),
               forbidden=True) == ("page", 403)
    assert get_flashed_messages(with_categories=True) == [("error", "non"), ("error", "non")]


def test_act_answers_404_for_an_unknown_row_when_asked(request_context):
    page = lambda status: ("page", status)  # noqa: E731
    assert act(lambda: _raise(operations.NotFound("inconnu")), lambda _: None, page) == ("page", 422)
    with pytest.raises(HTTPNotFound):
        act(lambda: _raise(operations.NotFound("inconnu")), lambda _: None, page, not_found=True)


def test_act_runs_nothing_when_the_button_s_form_expired(request_context):
    ran = []
    answer = act(lambda: ran.append("ran"), lambda _: ("fait", "/ailleurs"), lambda status: ("page", status),
                 valid=False)
    assert answer == ("page", 422) and ran == []
    assert get_flashed_messages(with_categories=True) == [("error", "Le formulaire a expiré : recommencez.")]


def test_a_page_that_tells_the_result_itself_is_flashed_nothing(request_context):
    assert act(lambda: 7, lambda n: (None, ("page", n)), lambda status: ("refused", status)) == ("page", 7)
    assert get_flashed_messages(with_categories=True) == []
