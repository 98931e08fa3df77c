

def test_verdict_text_claims_an_outcome_only_where_the_verdict_implies_it():
    """A qualitative verdict may sit on a rule that held (regenerated data) or failed
    (a multiplicity band): the table defers to the cause instead of saying 'failed'."""
    from lssvm.reporting.ledger import LedgerRow, _verdict_text

    def row(verdict):
        return LedgerRow(item="x", source="1", ours="1", difference="0", n_se=0.5,
                         verdict=verdict, rule="within 2 SE", cause="c")

    assert _verdict_text(row("reproduced")).endswith("held)")
    assert _verdict_text(row("not reproduced")).endswith("failed)")
    assert _verdict_text(row("reproduced qualitatively")).endswith("see the cause)")
