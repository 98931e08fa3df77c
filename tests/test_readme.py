"""The README's "use the library" example runs and says what it claims."""

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def _python_blocks():
    return re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)


def test_readme_example_runs_and_its_comments_hold():
    blocks = _python_blocks()
    assert len(blocks) == 1
    namespace = {}
    exec(compile(blocks[0], str(README), "exec"), namespace)  # noqa: S102
    clf, reg = namespace["clf"], namespace["reg"]
    X_test, y_test = namespace["X_test"], namespace["y_test"]
    assert abs(clf.score(X_test, y_test) - 0.91) < 0.01  # "about 0.91"
    assert abs(reg.predict([[0.0]])[0] - 1.0) < 0.1  # "close to sinc(0) = 1"
    assert set(namespace["tuned"].best_params_) == {"gamma", "sigma2"}
