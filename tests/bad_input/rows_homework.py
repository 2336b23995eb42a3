"""Bad-input rows: dicelab.course.homework (the checks of the homework notebooks' answers)."""

from bad_input import Row
from dicelab.course import homework

NOT_NAME = [None, "", "   ", 3]

ROWS = [
    Row(homework.check_answer, "what", NOT_NAME, lambda v: homework.check_answer(v, 1, 1)),
    Row(homework.check_answer, "expected", [object(), {"exact": "x/0"}, "{nonsense"],
        lambda v: homework.check_answer("x", 1, v)),
    Row(homework.check_form, "what", NOT_NAME, lambda v: homework.check_form(v, 1, "exact")),
    Row(homework.check_form, "form", [None, "nonsense", 3], lambda v: homework.check_form("x", 1, v)),
    Row(homework.encode, "value", [object(), {1: object()}, [1, object()]], lambda v: homework.encode(v)),
    Row(homework.decode, "data", [{"nonsense": 1}, 3.5, "{bad json", b"x"], lambda v: homework.decode(v)),
    Row(
        homework.decode_untrusted,
        "data",
        [{"nonsense": 1}, 3.5, b"x", {"exact": "1e5"}, {"sympy": "__import__('os')"}, {"number": "nan"}],
        lambda v: homework.decode_untrusted(v),
    ),
    Row(homework.form_of, "expected", [None, object(), [object()]], lambda v: homework.form_of(v)),
]

EXEMPT = {
    "dicelab.course.homework.check_answer:value": "the student's answer: any object is judged, and a wrong "
    "or missing one raises AnswerError in words, never a refusal",
    "dicelab.course.homework.check_form:value": "the student's answer: any object is judged, and a wrong "
    "or missing one raises AnswerError in words, never a refusal",
}
