package io.tributary.sql.calcite;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexLocalRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.rex.RexShuttle;

/**
 * A calculation's program rewritten expression by expression: each projection and the condition
 * expanded from the program's local references into a whole expression, so a shuttle sees a call
 * with its operands (a division under its cast) rather than references to other locals. Used by
 * the plan passes that rewrite calculations after planning ({@link MicrosecondPlans}, {@link
 * PlannedDivisions}); planning thread, stateless.
 */
final class WholeExpressionPrograms {
    private WholeExpressionPrograms() {}

    /**
     * {@code program} with {@code shuttle} applied to each whole projection and to the whole
     * condition, rebuilt with {@code rexBuilder}; {@code program} itself when the shuttle changes
     * none of them.
     */
    static RexProgram rewrite(RexProgram program, RexShuttle shuttle, RexBuilder rexBuilder) {
        boolean changed = false;
        List<RexNode> projects = new ArrayList<>();
        for (RexLocalRef project : program.getProjectList()) {
            RexNode expanded = program.expandLocalRef(project);
            RexNode rewritten = expanded.accept(shuttle);
            changed |= rewritten != expanded;
            projects.add(rewritten);
        }
        RexNode condition = null;
        if (program.getCondition() != null) {
            RexNode expanded = program.expandLocalRef(program.getCondition());
            condition = expanded.accept(shuttle);
            changed |= condition != expanded;
        }
        if (!changed) {
            return program;
        }
        return RexProgram.create(
                program.getInputRowType(), projects, condition, program.getOutputRowType(), rexBuilder);
    }
}
