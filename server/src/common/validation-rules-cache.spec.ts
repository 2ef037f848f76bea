import { IsInt, IsString, MaxLength, validate } from 'class-validator';
import { cacheValidationRules } from './validation-rules-cache';

describe('cacheValidationRules', () => {
  beforeAll(() => cacheValidationRules());

  class Base {
    @IsString()
    name!: string;
  }

  class Child extends Base {
    @IsInt()
    age!: number;
  }

  const make = <T extends object>(type: new () => T, fields: Record<string, unknown>): T => Object.assign(new type(), fields);
  const broken = async (o: object, options = {}) => (await validate(o, options)).flatMap((e) => Object.keys(e.constraints ?? {}));

  it('gives the same answers as without it, inherited rules included, each time', async () => {
    for (let i = 0; i < 3; i++) {
      expect(await broken(make(Child, { name: 'a', age: 1 }))).toEqual([]);
      expect(await broken(make(Child, { name: 1, age: 'x' }))).toEqual(['isInt', 'isString']);
      expect(await broken(make(Base, { name: 1 }))).toEqual(['isString']);
      expect(await broken(make(Child, { name: 'a', age: 1, extra: 1 }), { whitelist: true, forbidNonWhitelisted: true })).toEqual(['whitelistValidation']);
    }
  });

  it('sees rules added after a class was first validated (a subclass defined later)', async () => {
    expect(await broken(make(Child, { name: 'a', age: 1, title: 'long title' }))).toEqual([]);
    class Later extends Child {
      @MaxLength(3)
      title!: string;
    }
    expect(await broken(make(Later, { name: 'a', age: 'x', title: 'long title' }))).toEqual(['maxLength', 'isInt']);
    expect(await broken(make(Child, { name: 'a', age: 1, title: 'long title' }))).toEqual([]);
  });
});
