// bin/ops -> the back office's operator commands (decisions.md §11), over the very core functions the
// back office calls, as the operator tool (which may do every action and is audited as such): staff and
// their roles (kept with the identity), and the audit log.
import { parseArgs } from 'node:util';
import { listAuditLog } from '../../lambdas/core/back-office/audit-log';
import { OPERATOR_TOOL } from '../../lambdas/core/back-office/roles';
import { listStaff, putStaffMember, removeStaffMember } from '../../lambdas/core/back-office/staff';
import { ActionRefused } from '../../lambdas/core/errors';
import type { Directory } from '../../lambdas/core/organisations';
import { type Reach, reached, readEnvironment, servicesIn } from './scope';

export const BACK_OFFICE_USAGE = `  staff-add <email> --role R [--role R…] [--name "…"]
                                        make the person staff with exactly these roles (lawyer, operator, admin)
                                        and, with --name, the name a review page they publish shows
  staff-list                            the operator's staff, their names and roles
  staff-remove <email>                  the person is staff no longer
  audit-log [--environment E] [--staff EMAIL] [--action A] [--limit N] [--starting-after aud_…]
                                        the back office's audit log, newest first: {"data","has_more"};
                                        an environment's changes and the staff changes (default: all)`;

const COMMANDS = new Set(['staff-add', 'staff-list', 'staff-remove', 'audit-log']);

/** Runs a back-office command, or returns undefined when `command` is not one. */
export const runBackOfficeCommand = async (
  command: string,
  argv: string[],
  reach: Reach,
  directory: Directory,
): Promise<unknown> => {
  if (!COMMANDS.has(command)) return undefined;
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      role: { type: 'string', multiple: true },
      name: { type: 'string' },
      environment: { type: 'string' },
      staff: { type: 'string' },
      action: { type: 'string' },
      limit: { type: 'string' },
      'starting-after': { type: 'string' },
    },
  });
  const [email, ...extra] = positionals;
  if (command === 'audit-log' || command === 'staff-list') {
    if (positionals.length > 0) throw new ActionRefused(`unexpected ${positionals.join(' ')}`);
  } else if (!email || extra.length > 0) throw new ActionRefused(`${command} <email>`);
  switch (command) {
    case 'staff-add': {
      // `--role lawyer --role admin` or `--role lawyer,admin`.
      const roles = (values.role ?? []).flatMap((role) => role.split(',')).map((role) => role.trim());
      return putStaffMember(directory, OPERATOR_TOOL, email as string, roles, values.name);
    }
    case 'staff-list':
      return listStaff(directory, OPERATOR_TOOL);
    case 'staff-remove':
      return removeStaffMember(directory, OPERATOR_TOOL, email as string);
    default: {
      const environments =
        values.environment === undefined && reached(reach).length > 1
          ? reached(reach).map(([environment]) => environment)
          : [readEnvironment(values.environment, reach)];
      const limit = values.limit;
      if (limit !== undefined && !/^[0-9]{1,3}$/.test(limit))
        throw new ActionRefused('--limit must be an integer from 1 to 100');
      return listAuditLog(
        [...environments.map((e) => servicesIn(reach, e).ports.backOffice.audit), directory.staff.audit],
        OPERATOR_TOOL,
        {
          staff: values.staff,
          action: values.action,
          limit: limit === undefined ? undefined : Number(limit),
          startingAfter: values['starting-after'],
        },
      );
    }
  }
};
