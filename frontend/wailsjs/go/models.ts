export namespace shell {
	
	export class PageConfig {
	    view_url: string;
	    role: string;
	    preset: string;
	
	    static createFrom(source: any = {}) {
	        return new PageConfig(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.view_url = source["view_url"];
	        this.role = source["role"];
	        this.preset = source["preset"];
	    }
	}
	export class Rect {
	    x: number;
	    y: number;
	    w: number;
	    h: number;
	
	    static createFrom(source: any = {}) {
	        return new Rect(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.x = source["x"];
	        this.y = source["y"];
	        this.w = source["w"];
	        this.h = source["h"];
	    }
	}

}

