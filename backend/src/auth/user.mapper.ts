import type { UserDto } from './dto/auth.dto';

export function toUserDto(user: { id: string; email: string; displayName: string; roleId: 'member' | 'admin' | null }): UserDto {
  return { id: user.id, email: user.email, user_metadata: { display_name: user.displayName, role_id: user.roleId } };
}
